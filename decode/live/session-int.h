/* SPDX-License-Identifier: MIT */
/*
 * session-int.h - what session.c shares inside libehdecode and its tests
 */
#ifndef EHD_SESSION_INT_H
#define EHD_SESSION_INT_H

#include <stdbool.h>
#include <stddef.h>

struct ehd_session;

/*
 * ehd__session_view() - the stream read where it is (see ehd__spool_view()
 * and ehd__perf_view_fn): 1 with bytes at *@p, 0 at the end, -EAGAIN,
 * -ENODATA (read them with ehd_session_read()), or a failure (said by
 * ehd_session_error())
 */
int ehd__session_view(struct ehd_session *s, const void **p, size_t *n);

/* ehd__session_release() - no byte of the stream before @pos is needed. */
void ehd__session_release(struct ehd_session *s, uint64_t pos);

/*
 * ehd__session_starved() - the drain thread found the spool full since
 * the last call (see ehd__spool_starved()): what is kept of the stream
 * must be copied and given back.
 */
bool ehd__session_starved(struct ehd_session *s);

/*
 * ehd__session_asks_switch() - did the caller add sched:sched_switch
 * itself (not only through ehd_session_set_off_cpu())? A system trace
 * then keeps its samples as events, beside the cswitch samples made of
 * them.
 */
bool ehd__session_asks_switch(const struct ehd_session *s);

/* ehd__session_ring_bytes() - the data bytes of all its rings (0 before). */
size_t ehd__session_ring_bytes(const struct ehd_session *s);

/*
 * ehd__session_watermark() - the bytes its rings take before they wake
 * the drain thread, with @ncpu CPUs (those of ehd_session_set_cpus() if
 * it was given some): ehd__drain_watermark() of the session's ring size,
 * its latency bound, and the spool's memory and disk when there is no
 * output file
 */
size_t ehd__session_watermark(const struct ehd_session *s, size_t ncpu);

/*
 * ehd__cmdline_asks_switch() - the same of a recording, from its command
 * line (perf.data's CMDLINE, words joined by spaces): true when ehrecord
 * was given sched:sched_switch by -e (alone or among clustered short
 * options) or --event (or a unique prefix of it), before any "--"
 */
bool ehd__cmdline_asks_switch(const char *cmdline);

#endif /* EHD_SESSION_INT_H */
