/* SPDX-License-Identifier: MIT */
/*
 * check.h - ehrecord --check: one line per thing recording needs, with
 * its state and the fix when it fails
 *
 *	return check_run("ehrecord", false, command);	(the exit status)
 */
#ifndef EH_TOOLS_CHECK_H
#define EH_TOOLS_CHECK_H

#include <stdbool.h>

/*
 * check_run() - check this machine, and @command's program (NULL for
 * none) for frame pointers; print a line per requirement (JSON with
 * @jsonl) on standard output
 * Return: 0 when recording can work, else 1.
 */
int check_run(const char *prog, bool jsonl, char *const *command);

#endif /* EH_TOOLS_CHECK_H */
