/* SPDX-License-Identifier: MIT */
/*
 * cli.h - what the command lines of ehdecode and ehrecord share
 */
#ifndef EH_TOOLS_CLI_H
#define EH_TOOLS_CLI_H

#include <stdio.h>

/*
 * "PROG: WHAT[: ARG]" and a hint to --help on stderr; returns 2, the exit
 * status of a usage error.
 */
int cli_usage_error(const char *prog, const char *what, const char *arg);

/*
 * The options every tool has, as getopt_long() returned @c: -h (@usage
 * to stdout) and -V, and what the tool does not take (getopt_long() has
 * said what). Returns the exit status: 0, or 2 for a usage error.
 */
int cli_common(int c, const char *prog, void (*usage)(FILE *f));

#endif /* EH_TOOLS_CLI_H */
