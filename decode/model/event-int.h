/* SPDX-License-Identifier: MIT */
/*
 * event-int.h - what a reader hands on with an event so that its fields
 * are not worked out twice (libehdecode, private)
 */
#ifndef EHD_EVENT_INT_H
#define EHD_EVENT_INT_H

#include <ehdecode/enumerator.h>

struct ehd__procs;
struct ehd__tracefs_types;
struct ehd_event;

/*
 * struct ehd__event_internal - behind ehd_event.internal
 * @identified: an enumerator already started on the event's EventHeader
 *	data (kind EHD_EVENT_EVENTHEADER), or NULL
 * @types: the field kinds of its tracefs format (kind EHD_EVENT_TRACEFS),
 *	or NULL
 * @fields: a reader that walks the fields itself (nettrace): starts @en
 *	on them, or NULL
 * @ctx: for @fields
 * @procs: the reader's processes and mappings (EHD_READER_SYSTEM), for
 *	ehd_event_frames(), or NULL
 * @names_gen: nonzero when the event's thread and process names are
 *	those every event of the same pid and tid with this value has (no
 *	other reader gives the same value): a writer may keep what it made of
 *	them by (pid, tid, names_gen)
 */
struct ehd__event_internal {
	const struct ehd_enum *identified;
	const struct ehd__tracefs_types *types;
	int (*fields)(void *ctx, const struct ehd_event *ev,
		      struct ehd_enum *en, unsigned int flags);
	void *ctx;
	struct ehd__procs *procs;
	uint64_t names_gen;
};

#endif /* EHD_EVENT_INT_H */
