/* SPDX-License-Identifier: MIT */
/*
 * event-int.h - what a reader hands on with an event so that its fields
 * are not worked out twice, and what writers may ask of it (libehdecode,
 * private). Writers use the accessors below, never the fields.
 */
#ifndef EHD_EVENT_INT_H
#define EHD_EVENT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ehdecode/enumerator.h>
#include <ehdecode/event.h>

struct ehd__procs;
struct ehd__tracefs_types;

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

/* An enumerator already started on @ev's EventHeader data, or NULL. */
static inline const struct ehd_enum *
ehd__event_identified(const struct ehd_event *ev)
{
	return ev->internal ? ev->internal->identified : NULL;
}

/* The field kinds of @ev's tracefs format, or NULL. */
static inline const struct ehd__tracefs_types *
ehd__event_types(const struct ehd_event *ev)
{
	return ev->internal ? ev->internal->types : NULL;
}

/*
 * Are @ev's fields described by its source's own metadata (nettrace,
 * Heph) rather than by bytes of a tracepoint record?
 */
static inline bool ehd__event_own_fields(const struct ehd_event *ev)
{
	return ev->internal && ev->internal->fields;
}

/* The reader's processes and mappings, or NULL. */
static inline struct ehd__procs *ehd__event_procs(const struct ehd_event *ev)
{
	return ev->internal ? ev->internal->procs : NULL;
}

/* See @names_gen above; 0: none. */
static inline uint64_t ehd__event_names_gen(const struct ehd_event *ev)
{
	return ev->internal ? ev->internal->names_gen : 0;
}

/*
 * @raw gets @ev as its record: a classic tracepoint event (or raw bytes
 * when it has no format), for an event whose EventHeader data, or whose
 * own field description, turned out damaged.
 */
static inline void ehd__event_as_record(const struct ehd_event *ev,
					struct ehd_event *raw)
{
	*raw = *ev;
	raw->kind = ev->tep_event ? EHD_EVENT_TRACEFS : EHD_EVENT_RAW;
	if (ehd__event_own_fields(ev))
		raw->internal = NULL;	/* the payload's bytes */
	if (ev->record) {
		raw->data = ev->record;
		raw->size = ev->record_size;
	}
}

#endif /* EHD_EVENT_INT_H */
