/* SPDX-License-Identifier: BSD-3-Clause */
#include "core/daemon.h"

struct fwd_daemon fwd;
