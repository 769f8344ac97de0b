// SPDX-License-Identifier: MIT
/*
 * register.c - ehrecord --register and --unregister
 *
 * A tracepoint is registered with the command a program's registration
 * sends ("Name" EH_COMMAND_TYPES), so that the program shares it when it
 * starts. Without --persist the registration lasts while ehrecord holds
 * user_events_data open: until SIGINT or SIGTERM. With it, the kernel
 * keeps the tracepoint after ehrecord ends (USER_EVENT_REG_PERSIST, which
 * needs CAP_PERFMON), until --unregister deletes it (DIAG_IOCSDEL).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include <tracefs.h>

#include <eventheader/eh-uapi.h>
#include <eventheader/eventheader.h>

#include "list.h"
#include "register.h"

const char *register_spec_error(const char *spec)
{
	static char why[EH_NAME_MAX + 128];
	char canon[EH_NAME_MAX + 8], provider[EH_NAME_MAX];
	const char *name = ue_spec_name(spec), *options;
	uint64_t keyword;
	uint8_t level;
	size_t plen;

	if (!name)
		return "not a user_events tracepoint (--register takes Provider_L<level>K<keyword>[G<group>])";
	if (!eh_parse_tracepoint_name(name, &plen, &level, &keyword,
				      &options))
		return "not an EventHeader tracepoint name (want Provider_L<level>K<keyword>[G<group>], the level and keyword in lowercase hex)";
	memcpy(provider, name, plen);
	provider[plen] = 0;
	if (!eh_provider_name_valid(provider) || !eh_options_valid(options))
		return "not an EventHeader tracepoint name (a space or ':' in the provider, or options out of order)";
	eh_format_tracepoint_name(canon, sizeof(canon), provider, level,
				  keyword, options);
	if (strcmp(canon, name)) {
		snprintf(why, sizeof(why),
			 "not the name a program registers (that is %s, without leading zeros)",
			 canon);
		return why;
	}
	return NULL;
}

/* user_events_data, opened to register; -1 when it cannot be (said). */
static int open_data(const char *prog, const char *doing)
{
	const char *dir = tracefs_tracing_dir();
	char path[4200];
	int fd;

	if (!dir) {
		fprintf(stderr, "%s: no tracefs: it is not mounted (as root: mount -t tracefs nodev /sys/kernel/tracing)\n",
			prog);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/user_events_data", dir);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd >= 0)
		return fd;
	if (errno == ENOENT)
		fprintf(stderr, "%s: user_events: not in this kernel (%s has no user_events_data; it needs CONFIG_USER_EVENTS, Linux 6.4 or later)\n",
			prog, dir);
	else
		fprintf(stderr, "%s: %s: %s (%s needs write access to it: run as root)\n",
			prog, path, strerror(errno), doing);
	return -1;
}

struct reg {
	const char *name;
	uint32_t word;		/* the kernel's enable bit goes here */
	bool done;		/* registered */
	bool existed;		/* there before ehrecord registered it */
};

static int do_register(int fd, struct reg *r, bool persist)
{
	char command[EH_COMMAND_MAX + 8];
	struct eh__user_reg reg;

	snprintf(command, sizeof(command), "%s %s", r->name, EH_COMMAND_TYPES);
	memset(&reg, 0, sizeof(reg));
	reg.size = sizeof(reg);
	reg.enable_size = sizeof(r->word);
	reg.flags = persist ? EH__USER_EVENT_REG_PERSIST : 0;
	reg.enable_addr = (uint64_t)(uintptr_t)&r->word;
	reg.name_args = (uint64_t)(uintptr_t)command;
	if (ioctl(fd, EH__DIAG_IOCSREG, &reg) < 0)
		return -errno;
	r->done = true;
	return 0;
}

static void do_unregister(int fd, struct reg *r)
{
	struct eh__user_unreg unreg;

	memset(&unreg, 0, sizeof(unreg));
	unreg.size = sizeof(unreg);
	unreg.disable_addr = (uint64_t)(uintptr_t)&r->word;
	ioctl(fd, EH__DIAG_IOCSUNREG, &unreg);
	r->done = false;
}

static void say_failure(const char *prog, const char *name, int e,
			bool persist)
{
	const char *why = strerror(e), *hint = "";

	if (e == EADDRINUSE)
		why = "it exists with other fields (not an EventHeader tracepoint)";
	else if (persist && e == EPERM)
		hint = " (persistent registration needs CAP_PERFMON; without --persist it needs none)";
	else if (persist && e == EINVAL)
		hint = " (this kernel has no persistent registration, USER_EVENT_REG_PERSIST)";
	fprintf(stderr, "%s: cannot register user_events:%s%s: %s%s\n", prog,
		name, persist ? " to persist" : "", why, hint);
}

int register_run(const char *prog, char *const *specs, size_t n,
		 bool persist, bool wait)
{
	struct ue_status *st = NULL;
	struct reg *regs;
	size_t nst = 0, nregs = 0, i, j;
	sigset_t sigs;
	int fd, err = 0, sig, ret = 0;

	regs = calloc(n ? n : 1, sizeof(*regs));
	if (!regs) {
		fprintf(stderr, "%s: %s\n", prog, strerror(ENOMEM));
		return 1;
	}
	for (i = 0; i < n; i++) {
		const char *name = ue_spec_name(specs[i]);

		for (j = 0; j < nregs && strcmp(regs[j].name, name); j++)
			;
		if (j == nregs)
			regs[nregs++].name = name;
	}
	fd = open_data(prog, "registering");
	if (fd < 0) {
		free(regs);
		return 1;
	}
	/*
	 * Blocked from now, so that a signal is waited for below, also when
	 * it comes during registration (or was ignored by the parent shell).
	 */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigprocmask(SIG_BLOCK, &sigs, NULL);
	/* What is there already keeps its first registration's flags. */
	if (persist && !ue_status_read(tracefs_tracing_dir(), &st, &nst))
		for (i = 0; i < nregs; i++)
			for (j = 0; j < nst; j++)
				if (!strcmp(st[j].name, regs[i].name))
					regs[i].existed = true;
	ue_status_free(st, nst);
	for (i = 0; i < nregs && !err; i++) {
		err = do_register(fd, &regs[i], persist);
		if (err)
			say_failure(prog, regs[i].name, -err, persist);
	}
	if (err) {
		/* all or nothing: what this run made persistent goes too */
		for (i = 0; i < nregs; i++) {
			if (!regs[i].done)
				continue;
			do_unregister(fd, &regs[i]);
			if (persist && !regs[i].existed)
				ioctl(fd, EH__DIAG_IOCSDEL, regs[i].name);
		}
		close(fd);
		free(regs);
		return 1;
	}
	for (i = 0; i < nregs; i++)
		printf("user_events:%s\n", regs[i].name);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "%s: standard output: %s\n", prog,
			strerror(errno));
		ret = 1;
	}
	for (i = 0; i < nregs; i++)
		if (regs[i].existed)
			fprintf(stderr, "%s: user_events:%s existed already: the kernel keeps it as its first registration made it, persistent or not (--register --persist before the program starts makes it persistent)\n",
				prog, regs[i].name);
	if (!ret && (!persist || wait)) {
		if (isatty(STDERR_FILENO))
			fprintf(stderr, "%s: holding %zu tracepoint%s until Ctrl-C (SIGINT) or SIGTERM\n",
				prog, nregs, nregs == 1 ? "" : "s");
		while (sigwait(&sigs, &sig))
			;
	}
	/* Closing the file ends the registrations (not --persist's). */
	close(fd);
	free(regs);
	return ret;
}

int unregister_run(const char *prog, char *const *specs, size_t n)
{
	const char *name;
	size_t i;
	int fd, e, ret = 0;

	fd = open_data(prog, "removing tracepoints");
	if (fd < 0)
		return 1;
	for (i = 0; i < n; i++) {
		name = ue_spec_name(specs[i]);
		if (!ioctl(fd, EH__DIAG_IOCSDEL, name))
			continue;
		e = errno;
		ret = 1;
		fprintf(stderr, "%s: cannot remove user_events:%s: %s\n", prog,
			name,
			e == ENOENT ? "there is no such tracepoint" :
			e == EBUSY ? "it is in use (a program has it registered, or a recorder has it enabled)" :
			e == EPERM ? "Operation not permitted (removing a persistent tracepoint needs CAP_PERFMON)" :
			strerror(e));
	}
	close(fd);
	return ret;
}
