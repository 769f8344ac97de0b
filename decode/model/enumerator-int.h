/* SPDX-License-Identifier: MIT */
/*
 * enumerator-int.h - filling an enumerator with items made elsewhere
 * (libehdecode, private)
 *
 * The fields of a classic tracepoint are walked with the same enumerator
 * as EventHeader fields: ehd__enum_begin_list() starts an enumerator with
 * no EventHeader identity (ehd_enum_event() gives NULL), and the items are
 * then appended in order with ehd__enum_add(); ehd_enum_next() replays
 * them.
 */
#ifndef EHD_ENUMERATOR_INT_H
#define EHD_ENUMERATOR_INT_H

#include <stdbool.h>

#include <ehdecode/enumerator.h>

void ehd__enum_begin_list(struct ehd_enum *en, const void *data, size_t size);

/*
 * Start @en on the event @from was started on (ehd_enum_start() succeeded),
 * without checking its header, name and extensions again.
 */
void ehd__enum_start_as(struct ehd_enum *en, const struct ehd_enum *from);

/*
 * Fill in the tracepoint name members of @info (tracepoint, provider_len,
 * options, keyword) from @tp, an EventHeader tracepoint name whose level
 * must be @info->header.level. Return: 0 or -ENOTSUP.
 */
int ehd__eh_tracepoint(struct ehd_event_info *info, const char *tp,
		       size_t len);

/*
 * After ehd__enum_begin_list(): the items belong to an EventHeader event
 * of identity @info (copied; its strings must outlive the walk).
 */
void ehd__enum_set_event(struct ehd_enum *en,
			 const struct ehd_event_info *info);

/*
 * Where the field declarations (after the event name, to the end of the
 * metadata extension) and the payload start in the data of a started
 * EventHeader enumerator.
 */
void ehd__enum_layout(const struct ehd_enum *en, const uint8_t **decls,
		      size_t *decls_len, size_t *payload);

/*
 * The key of the identity of the event a started EventHeader enumerator
 * is on: two events with the same nonzero key have the same tracepoint
 * and the same bytes from the header to the payload (activity ids aside),
 * so the same provider, name, header fields and field declarations. Keys
 * are unique in the process; 0 means unknown (compare then).
 */
uint64_t ehd__enum_key(const struct ehd_enum *en);

/*
 * Does the EventHeader event of @en (walked) go on after its last field
 * with more than perf's padding (ehd__extra_bytes())? Its reader shows
 * nothing of those bytes.
 */
bool ehd__enum_extra(struct ehd_enum *en);

/*
 * Values of the event left out or cut because its record does not hold
 * them whole (a field outside the record, part of an array element):
 * noted while the items are added, 0 again at the next start.
 */
void ehd__enum_note_cut(struct ehd_enum *en);
unsigned int ehd__enum_cut(const struct ehd_enum *en);

/* A zeroed item for @state (enum ehd_state), or NULL (out of memory). */
struct ehd_item *ehd__enum_add(struct ehd_enum *en, int state);

/* Make ehd_enum_next() end with @err after the items added so far. */
int ehd__enum_fail(struct ehd_enum *en, int err, uint64_t offset,
		   const char *reason);

#endif /* EHD_ENUMERATOR_INT_H */
