/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>

#include "cli.h"

int main(int argc, char **argv)
{
	return fwd_cli_main(argc, argv, stdout, stderr);
}
