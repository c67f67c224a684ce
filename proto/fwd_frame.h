/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RPC framing shared by fwd-daemon and fwdctl (the protocol is proto/fwd.proto):
 * a 4-byte big-endian length, then that many bytes of a packed
 * fwd.Request or fwd.Response. The length is checked against
 * FWD_FRAME_MAX before anything is allocated.
 */
#ifndef FWD_FRAME_H
#define FWD_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "fwd.pb-c.h"

#define FWD_API_VERSION 1u
#define FWD_FRAME_HDR   4u
#define FWD_FRAME_MAX   (1u << 20) /* payload cap, bytes */

/*
 * Read a frame header. Returns 0 and sets *len, or -EMSGSIZE when the
 * length exceeds FWD_FRAME_MAX, or -EBADMSG when it is zero.
 */
int fwd_frame_hdr_parse(const uint8_t hdr[FWD_FRAME_HDR], uint32_t *len);

void fwd_frame_hdr_put(uint8_t hdr[FWD_FRAME_HDR], uint32_t len);

/*
 * Pack a message behind its header into a new buffer (free with free()).
 * Returns 0, -EMSGSIZE when the packed message exceeds FWD_FRAME_MAX, or
 * -ENOMEM.
 */
int fwd_frame_pack(const ProtobufCMessage *msg, uint8_t **buf, size_t *len);

/*
 * Blocking helpers for clients. fwd_frame_write sends a whole frame.
 * fwd_frame_read reads one frame's payload into a new buffer (free with
 * free()); returns 0, -EPIPE on a clean EOF before a header, -EMSGSIZE or
 * -EBADMSG on a bad length, -EIO on EOF inside a frame, -ETIMEDOUT when
 * the whole frame has not arrived within timeout_ms, or -errno.
 * timeout_ms < 0 waits forever. Both retry on EINTR, never raise SIGPIPE
 * and work on blocking and non-blocking sockets alike.
 * fwd_frame_pack and the writers refuse an all-default message (it would
 * pack to a zero-length frame) with -EBADMSG.
 */
int fwd_frame_write(int fd, const ProtobufCMessage *msg);
int fwd_frame_write_timeout(int fd, const ProtobufCMessage *msg, int timeout_ms);
int fwd_frame_read(int fd, uint8_t **payload, size_t *len, int timeout_ms);

#endif
