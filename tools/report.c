// SPDX-License-Identifier: MIT
/*
 * report.c - counts of what was lost, cut or changed, said on stderr
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

/* A count of a stats struct and what a non-zero one means. */
struct count {
	size_t at;
	const char *what;
};

#define W(m, what) { offsetof(struct ehd_writer_stats, m), what }
static const struct count writer_counts[] = {
	W(skipped, "events too large for nettrace (payload over 65,535 bytes) were not written"),
	W(untyped, "events needed more metadata than a nettrace row holds: written as their record's fields or bytes"),
	W(reordered, "events older than an earlier window were written at its end time"),
	W(lossy, "strings were cut to 65,535 bytes or characters outside UTF-16 written as U+FFFD"),
	W(stacks_cut, "stacks were cut to 8,190 frames"),
	W(unmatched, "activity starts or stops paired with nothing (written as instant events)"),
	W(unfinished, "activities had no stop (ended at the last time of their input)"),
	W(split, "activities still open at the stop of an enclosing one were split there"),
	W(untimed, "events without a time were put at the time of the event before them"),
	W(utf8_replaced, "ill-formed UTF-8 sequences were written as U+FFFD"),
	W(trailing, "EventHeader events had data after their last field (not written)"),
	W(fields_cut, "events had fields their record does not hold (written as null) or arrays cut inside an element"),
	{ 0, NULL }
};

static const struct count heph_counts[] = {
	W(untimed, "events had no time and were written at time 0"),
	W(reordered, "events before the first one (the epoch) were written at time 0"),
	W(unfinished, "activities were not stopped; written with end = start"),
	W(unmatched, "activity starts or stops paired with nothing (written as instant events)"),
	W(lossy, "strings or arrays were cut to 65,535 bytes or elements"),
	W(skipped, "events over 4 GiB were not written"),
	W(utf8_replaced, "ill-formed UTF-8 sequences were written as U+FFFD"),
	W(trailing, "EventHeader events had data after their last field (not written)"),
	W(fields_cut, "events had fields their record does not hold (written as null) or arrays cut inside an element"),
	{ 0, NULL }
};
#undef W

#define R(m, what) { offsetof(struct ehd_reader_stats, m), what }
static const struct count reader_counts[] = {
	R(lost_other, "thread names, mappings or other side-band records were lost (names and stack frames may be missing)"),
	R(throttled, "THROTTLE records: the kernel paused the sampling of an event that came too often (the samples it did not take are not counted as lost)"),
	R(format_errors, "tracepoint formats could not be read (their events written as raw)"),
	R(unknown_id, "samples of an unknown event id (written as raw)"),
	R(malformed, "malformed records were skipped"),
	R(dangling, "events name a thread, stack or label list the file does not have (written without it)"),
	R(early_flushes, "rounds too large to sort whole; output sorted in parts"),
	{ 0, NULL }
};
#undef R

static void say_counts(const char *prog, const char *name, const void *st,
		       const struct count *c)
{
	uint64_t n;

	for (; c->what; c++) {
		memcpy(&n, (const char *)st + c->at, sizeof(n));
		if (!n)
			continue;
		if (name)
			fprintf(stderr, "%s: %s: %llu %s\n", prog, name,
				(unsigned long long)n, c->what);
		else
			fprintf(stderr, "%s: %llu %s\n", prog,
				(unsigned long long)n, c->what);
	}
}

uint64_t report_lost(struct ehd_reader *r)
{
	struct ehd_reader_stats st;

	ehd_reader_stats(r, &st);
	return st.lost;
}

void report_reader(const char *prog, const char *name, struct ehd_reader *r,
		   bool lost)
{
	struct ehd_reader_stats st;

	ehd_reader_stats(r, &st);
	if (lost && st.lost && ehd_reader_kind(r) == EHD_INPUT_NETTRACE)
		fprintf(stderr, "%s: %s: %llu events lost (gaps in sequence numbers)\n",
			prog, name, (unsigned long long)st.lost);
	else if (lost && st.lost)
		fprintf(stderr, "%s: %s: %llu events lost (from %llu LOST and LOST_SAMPLES records)\n",
			prog, name, (unsigned long long)st.lost,
			(unsigned long long)st.lost_records);
	say_counts(prog, name, &st, reader_counts);
}

void report_writer(const char *prog, struct ehd_writer *w, int format,
		   bool totals)
{
	struct ehd_writer_stats st;

	ehd_writer_stats(w, &st);
	say_counts(prog, NULL, &st,
		   format == EHD_OUT_HEPH ? heph_counts : writer_counts);
	if (!totals)
		return;
	fprintf(stderr, "%s: %llu events, %llu bytes", prog,
		(unsigned long long)st.events, (unsigned long long)st.bytes);
	if (st.events && (st.header_bytes || st.payload_bytes))
		fprintf(stderr, "; per event: %.2f bytes of header, %.2f of payload; %llu event types",
			(double)st.header_bytes / (double)st.events,
			(double)st.payload_bytes / (double)st.events,
			(unsigned long long)st.metadata);
	fputc('\n', stderr);
}

void report_details(const char *prog, const char *name, struct ehd_reader *r)
{
	struct ehd_reader_stats st;
	uint64_t threads;

	ehd_reader_stats(r, &st);
	if (st.passed)
		fprintf(stderr, "%s: %s: %llu of its %llu events written from their records without being decoded (their type already in the output)\n",
			prog, name, (unsigned long long)st.passed,
			(unsigned long long)st.events);
	if (st.files_read)
		fprintf(stderr, "%s: %s: symbol tables read from %llu of the %llu mapped files read\n",
			prog, name, (unsigned long long)st.files_symbols,
			(unsigned long long)st.files_read);
	if (!st.stacks)
		return;
	threads = st.stacks - st.stacks_idle;
	fprintf(stderr, "%s: %s: %llu stacks: %llu broken (%.1f%% of the %llu outside the idle task), %llu of the idle task; %llu frames past the outermost cut\n",
		prog, name, (unsigned long long)st.stacks,
		(unsigned long long)st.stacks_broken,
		threads ? 100.0 * (double)st.stacks_broken / (double)threads : 0.0,
		(unsigned long long)threads,
		(unsigned long long)st.stacks_idle,
		(unsigned long long)st.frames_cut);
}

void report_recording(FILE *f, const char *prog,
		      const struct report_recording *rec,
		      const struct ehd_session_stats *st)
{
	uint64_t had = rec->perf ? st->samples : rec->samples_read;
	char cpu[48] = "";

	/*
	 * A file holds what was written to it, counted as it was (a
	 * perf.data cut back for want of room: the kernel's count of what
	 * was recorded, not all kept; its CPU samples uncounted, as the
	 * kernel does not count them: a cpu-clock's count is time).
	 */
	if (rec->perf && rec->cpu_samples && rec->cut)
		strcpy(cpu, " and CPU samples");
	else if (rec->perf && rec->cpu_samples)
		snprintf(cpu, sizeof(cpu), " and %llu CPU samples",
			 (unsigned long long)st->cpu_samples);
	fprintf(f, "%s: wrote %s%s%s%s: %llu events%s%s, %llu lost, in %.1f s\n",
		prog, rec->output, rec->last ? " to " : "",
		rec->last ? rec->last : "",
		rec->cut ? " (cut short: no room)" : "",
		(unsigned long long)(!rec->perf ? rec->events :
				     rec->cut ? st->kernel_samples :
						st->samples),
		rec->perf && rec->cut ? " recorded" : "", cpu,
		(unsigned long long)st->lost, rec->seconds);
	/*
	 * A file that took all the rings had them all, as a conversion that
	 * read all the stream did: what the kernel counted beyond is not
	 * anywhere (see kernel_samples). A circular session's file has only
	 * the newest by design.
	 */
	if ((rec->perf || rec->read_all) && !rec->cut && !st->limit_dropped &&
	    !st->circular && st->kernel_samples > had)
		fprintf(f, "%s: the kernel counted %llu more events than it wrote to the rings (not in the file, and not counted as lost)\n",
			prog, (unsigned long long)(st->kernel_samples - had));
}
