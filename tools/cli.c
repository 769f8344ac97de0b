// SPDX-License-Identifier: MIT
/*
 * cli.c - what the command lines of ehdecode and ehrecord share (see
 * cli.h)
 */
#include <stdio.h>

#include "cli.h"

int cli_usage_error(const char *prog, const char *what, const char *arg)
{
	fprintf(stderr, "%s: %s%s%s\nTry '%s --help' for more information.\n",
		prog, what, arg ? ": " : "", arg ? arg : "", prog);
	return 2;
}

int cli_common(int c, const char *prog, void (*usage)(FILE *f))
{
	switch (c) {
	case 'h':
		usage(stdout);
		return 0;
	case 'V':
		printf("%s (%s) %s\n", prog, PACKAGE_NAME, PACKAGE_VERSION);
		return 0;
	default:
		fprintf(stderr, "Try '%s --help' for more information.\n",
			prog);
		return 2;
	}
}
