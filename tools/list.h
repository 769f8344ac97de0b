/* SPDX-License-Identifier: MIT */
/*
 * list.h - ehrecord --list: the tracepoints that exist now, EventHeader
 * names decoded into provider, level, keyword and group, and which kinds
 * of consumer have each enabled; and the user_events_status reader that
 * --register shares
 *
 *	struct list_opts o = { .prog = "ehrecord", .pattern = "MyProvider" };
 *
 *	return list_run(&o);		(the exit status; failures said)
 */
#ifndef EH_TOOLS_LIST_H
#define EH_TOOLS_LIST_H

#include <stdbool.h>
#include <stddef.h>

struct list_opts {
	const char *prog;	/* for messages */
	const char *pattern;	/* a SPEC or a glob, or NULL for all */
	bool all;		/* classic tracepoints too (--list=all) */
	bool jsonl;		/* one JSON object a line (-F jsonl) */
};

/* List what @o asks for; the exit status (0, or 1 said on stderr). */
int list_run(const struct list_opts *o);

/* @n bytes at @s as a JSON string on standard output. */
void print_json_string(const char *s, size_t n);

/* Consumers of a user_events tracepoint (its user_events_status line). */
#define UE_USED_FTRACE 0x1
#define UE_USED_PERF 0x2	/* perf, ehrecord, ehdecode -e, eBPF */
#define UE_USED_OTHER 0x4

struct ue_status {
	char *name;		/* the tracepoint name, without the system */
	unsigned int used;	/* UE_USED_* */
};

/*
 * ue_status_read() - the user_events tracepoints in @dir/user_events_status
 * Return: 0 with *@v (free with ue_status_free()) and *@n; -ENOENT when
 * the file is not there (no user_events in this kernel), or another
 * negative errno.
 */
int ue_status_read(const char *dir, struct ue_status **v, size_t *n);
void ue_status_free(struct ue_status *v, size_t n);

/*
 * ue_spec_name() - the tracepoint name of a --register SPEC: "Name" or
 * "user_events:Name", or NULL for another system
 */
const char *ue_spec_name(const char *spec);

/* "critical", "error", "warning", "info", "verbose", or NULL. */
const char *ue_level_name(unsigned int level);

#endif /* EH_TOOLS_LIST_H */
