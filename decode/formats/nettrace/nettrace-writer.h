/* SPDX-License-Identifier: MIT */
/*
 * nettrace-writer.h - events written as a nettrace v6 stream
 * (libehdecode, private; used through ehdecode/writer.h)
 */
#ifndef EHD_NETTRACE_WRITER_H
#define EHD_NETTRACE_WRITER_H

#include <stdint.h>

struct ehd__ntw;
struct ehd_enum;
struct ehd_event;
struct ehd_trace_info;
struct ehd_writer_stats;

int ehd__ntw_new(struct ehd__ntw **wp, int fd);
void ehd__ntw_free(struct ehd__ntw *w);

/* A new source; @info (may be NULL) is taken from the first one. */
int ehd__ntw_begin(struct ehd__ntw *w, const char *name,
		   const struct ehd_trace_info *info);

/*
 * ehd__ntw_event() - add one event (with @en, a spare enumerator)
 * Return: 0; -EBADMSG for EventHeader data that do not fit their
 * declarations (written as the record's classic fields or bytes, with
 * *@why and *@where saying what was wrong); -E2BIG for an event nettrace
 * cannot hold (not written, counted); -ENOTSUP for an event read from
 * nettrace or a Heph trace (typed by their metadata: no bytes to map);
 * -ENOMEM or a write error.
 */
int ehd__ntw_event(struct ehd__ntw *w, const struct ehd_event *ev,
		   struct ehd_enum *en, const char **why, uint64_t *where);

/* Write what is held, the last sequence point and the end of stream. */
int ehd__ntw_close(struct ehd__ntw *w);

/* Count @n events the source lost (the trace key "ehd:EventsLost"). */
void ehd__ntw_add_lost(struct ehd__ntw *w, uint64_t n);

void ehd__ntw_stats(const struct ehd__ntw *w, struct ehd_writer_stats *st);

#endif /* EHD_NETTRACE_WRITER_H */
