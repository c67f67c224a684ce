/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The RPC decoder on arbitrary bytes, as one client connection would send
 * them: frames (length header checked against the cap), protobuf unpack,
 * API version check, then the real handlers with their argument checks
 * against an in-process daemon. Invariants: no crash, leak or hang; every
 * reply packs within the frame cap; paged replies end.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/rpc.h"
#include "fuzz_env.h"
#include "fwd_frame.h"

#define MAX_PAGES 10000

static struct fwd_arena *arena;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	fuzz_env_up();
	arena = fwd_arena_new();
	return arena == NULL ? -1 : 0;
}

static void send_reply(const Fwd__Response *resp)
{
	uint8_t *buf;
	size_t len;
	int rc = fwd_frame_pack(&resp->base, &buf, &len);

	if (rc == 0)
		free(buf);
	else if (rc != -EMSGSIZE) /* the server turns an oversize reply into an error */
		abort();
}

/* One request: dispatch, reply, and drain its pages. Returns false to hang up. */
static bool one_request(const uint8_t *payload, size_t len, bool *versioned)
{
	struct fwd_rpc_call call;
	int rc;

	fwd_rpc_call_init(&call, arena);
	rc = fwd_rpc_dispatch(payload, len, versioned, &call);
	if (rc == -EBADMSG) {
		fwd_rpc_call_end(&call);
		return false;
	}
	if (!call.deferred)
		send_reply(call.resp);
	for (unsigned pages = 0; call.resp != NULL && call.resp->more; pages++) {
		if (pages == MAX_PAGES)
			abort(); /* a stream that never ends */
		int more = fwd_rpc_next_page(&call);
		if (more == -EAGAIN)
			break; /* e.g. a capture waiting for packets: the client hangs up */
		if (more == -EINPROGRESS)
			continue; /* a deferred reply: its next slice */
		send_reply(call.resp);
	}
	fwd_rpc_call_end(&call);
	return rc == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	bool versioned = false;

	while (size >= FWD_FRAME_HDR) {
		uint32_t len;
		if (fwd_frame_hdr_parse(data, &len) < 0 || len > size - FWD_FRAME_HDR)
			break; /* the server closes the connection */
		if (!one_request(data + FWD_FRAME_HDR, len, &versioned))
			break;
		data += FWD_FRAME_HDR + len;
		size -= FWD_FRAME_HDR + len;
	}
	return 0;
}
