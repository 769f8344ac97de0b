/* SPDX-License-Identifier: MIT */
/*
 * heph-writer.h - events written as a Heph trace (libehdecode, private;
 * used through ehdecode/writer.h)
 *
 * Packets are appended to the writer's output buffer, which writer.c
 * writes out. The mapping (docs/heph.md):
 *  - the first event decides the epoch: with a UTC time, an epoch
 *    metadata packet is written first, the epoch being that time (for an
 *    event read from a Heph trace, that trace's own epoch); times are
 *    then ns after it. Without UTC time there is no epoch packet and
 *    times are those of the source's clock;
 *  - an activity start (opcode 1 with an activity id) is held until the
 *    stop (opcode 2) of the same id comes: the two become one event
 *    packet from the start's time to the stop's, the start's fields then
 *    the stop's (named "stop.<name>"). Activities not stopped when the
 *    source ends are written then with end = start, and counted;
 *  - every other event is a packet with start = end = its time;
 *  - stream id = pid, substream id = tid (0 when the source has none);
 *    description "provider:event" (just "event" without a provider);
 *  - fields become attributes: unsigned integers (and hex) u64, signed
 *    ones (and pids) i64, floats f64, text strings string, arrays of
 *    those arrays of them; anything else a string: its JSON rendering
 *    (a JSON string's text without quotes);
 *  - an event without time is written at time 0 and counted; one before
 *    the epoch at time 0, counted as reordered;
 *  - events read from a Heph trace are copied as they are, with their
 *    times moved to this trace's epoch.
 */
#ifndef EHD_HEPH_WRITER_H
#define EHD_HEPH_WRITER_H

struct ehd__hephw;
struct ehd_buf;
struct ehd_enum;
struct ehd_event;
struct ehd_writer_stats;

int ehd__hephw_new(struct ehd__hephw **wp);
void ehd__hephw_free(struct ehd__hephw *w);

/*
 * ehd__hephw_event() - add one event whose fields @en is started on
 * @out: gets the packets that are complete
 * Return: 0; the enumerator's negative errno when the fields are damaged
 * (nothing is added or held); -ENOMEM.
 */
int ehd__hephw_event(struct ehd__hephw *w, const struct ehd_event *ev,
		     struct ehd_enum *en, struct ehd_buf *out);

/* The end of a source: the activities still open go out, end = start. */
int ehd__hephw_end(struct ehd__hephw *w, struct ehd_buf *out);

/* Counts: events (packets), reordered, lossy, skipped, untimed, unfinished. */
void ehd__hephw_stats(const struct ehd__hephw *w, struct ehd_writer_stats *st);

#endif /* EHD_HEPH_WRITER_H */
