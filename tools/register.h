/* SPDX-License-Identifier: MIT */
/*
 * register.h - ehrecord --register and --unregister: EventHeader
 * tracepoints registered, with the fields every program registers them
 * with, and held until a signal (or kept by the kernel with --persist),
 * so that any recorder can be started before the program
 *
 *	if ((why = register_spec_error(spec)))
 *		... usage error ...
 *	return register_run("ehrecord", specs, n, persist, wait);
 */
#ifndef EH_TOOLS_REGISTER_H
#define EH_TOOLS_REGISTER_H

#include <stdbool.h>
#include <stddef.h>

/*
 * register_spec_error() - why @spec cannot be registered, or NULL: it is
 * "Provider_L<level>K<keyword>[G<group>]" (or "user_events:" and that),
 * as a program registers it
 */
const char *register_spec_error(const char *spec);

/*
 * register_run() - register each of @specs (@n of them); without @persist,
 * or with @wait, hold them until SIGINT or SIGTERM
 * Return: the exit status (0, or 1 said on stderr).
 */
int register_run(const char *prog, char *const *specs, size_t n,
		 bool persist, bool wait);

/* Remove the persistent tracepoints @specs; the exit status. */
int unregister_run(const char *prog, char *const *specs, size_t n);

#endif /* EH_TOOLS_REGISTER_H */
