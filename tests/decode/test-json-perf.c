// SPDX-License-Identifier: MIT
/*
 * test-json-perf.c - the samples of the reference's perf.data and
 * pipe.data, in file order, as compact JSON with every sample meta, framed
 * as the reference's own test frames them, must equal perf.data.linux.json
 * and pipe.data.linux.json byte for byte.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include <ehdecode/enumerator.h>

#include "ehd-buf.h"
#include "json-event.h"
#include "perf-file.h"
#include "test-files.h"

static int sample_json(struct ehd_buf *b, struct ehd__perf_file *f,
		       struct ehd_enum *en, const struct ehd__perf_sample *s)
{
	const struct ehd__perf_session *ses = ehd__perf_session(f);
	const struct ehd__perf_event_desc *d = s->desc;
	struct ehd__json_context ctx;
	const uint8_t *raw = s->raw;
	int err;

	memset(&ctx, 0, sizeof(ctx));
	if (s->fields & PERF_SAMPLE_TIME) {
		ctx.has_time = 1;
		ctx.time_utc = ses->has_clock_offset;
		ctx.time = ehd__perf_time_to_utc(f, s->time);
	}
	ctx.has_cpu = !!(s->fields & PERF_SAMPLE_CPU);
	ctx.cpu = s->cpu;
	ctx.has_pid = !!(s->fields & PERF_SAMPLE_TID);
	ctx.pid = s->pid;
	ctx.tid = s->tid;
	if (d && d->eh_offset >= 0 && (uint32_t)d->eh_offset <= s->raw_size) {
		err = ehd_enum_start(en, d->tp_name, strlen(d->tp_name),
				     raw + d->eh_offset,
				     s->raw_size - (uint32_t)d->eh_offset, 0);
		if (!err)
			err = ehd__json_event(b, en, &ctx, 0, EHD__META_DEFAULT);
		return err;
	}
	return ehd__json_tracefs_event(b, d && d->name ? d->name : "",
				       d ? d->tep_event : NULL, raw,
				       s->raw_size, &ctx, 0, EHD__META_DEFAULT,
				       ses->tracing_long_size ?
					       ses->tracing_long_size : 8,
				       ses->big_endian);
}

static int check(const char *dir, const char *name)
{
	struct ehd_buf out = EHD_BUF_INIT;
	const struct ehd__perf_record *rec;
	struct ehd__perf_file *f;
	struct ehd_enum *en = ehd_enum_new();
	unsigned char *want;
	size_t want_size, i;
	char path[4096];
	int r, n = 0, bad = 0;

	snprintf(path, sizeof(path), "%s/%s.linux.json", dir, name);
	want = tf_slurp(path, &want_size);
	if (!want) {
		printf("FAIL: %s: cannot read\n", path);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	r = ehd__perf_new(&f);
	if (!r)
		r = ehd__perf_open(f, path);
	ehd__buf_puts(&out, "\xEF\xBB\xBF\n\"EventHeaderPerf.data\": [");
	while (r >= 0 && (r = ehd__perf_next(f, &rec)) > 0) {
		size_t at = out.len;

		if (rec->type != PERF_RECORD_SAMPLE || !rec->has_sample)
			continue;
		ehd__buf_puts(&out, n++ ? ",\n " : "\n ");
		if (sample_json(&out, f, en, &rec->sample) < 0) {
			printf("%s: sample %d: %s\n", name, n,
			       ehd_enum_error(en, NULL));
			out.len = at;
			bad++;
		}
	}
	ehd__buf_puts(&out, " ]\n");
	if (r < 0) {
		uint64_t off = 0;
		const char *why = ehd__perf_error(f, &off);

		printf("FAIL: %s: offset %llu: %s\n", name,
		       (unsigned long long)off, why);
		return 1;
	}
	for (i = 0; i < out.len && i < want_size; i++)
		if (out.p[i] != (char)want[i])
			break;
	if (!bad && i == out.len && i == want_size) {
		printf("json-perf: %s: %d samples, %zu bytes: identical to the reference\n",
		       name, n, out.len);
		r = 0;
	} else {
		size_t s = i, e;

		while (s > 0 && want[s - 1] != '\n')
			s--;
		for (e = i; e < want_size && want[e] != '\n'; e++)
			;
		printf("FAIL: %s: differs at byte %zu (%zu vs %zu bytes)\nwant: %.*s\n",
		       name, i, out.len, want_size, (int)(e - s), want + s);
		for (e = i; e < out.len && out.p[e] != '\n'; e++)
			;
		printf("got : %.*s\n", (int)(e - s), out.p + s);
		r = 1;
	}
	ehd__perf_free(f);
	ehd_enum_free(en);
	ehd__buf_free(&out);
	free(want);
	return r;
}

/* libtraceevent leaks on formats it cannot parse (not ours). */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\n";
}

int main(void)
{
	const char *shared = getenv("EH_SHARED_DIR");
	char dir[4096], probe[4200];
	FILE *f;
	int failed;

	snprintf(dir, sizeof(dir), "%s/conformance/eventheader",
		 shared ? shared : "../shared");
	snprintf(probe, sizeof(probe), "%s/perf.data.linux.json", dir);
	f = fopen(probe, "rb");
	if (!f) {
		printf("SKIP: reference corpus not found under %s\n", dir);
		return 77;
	}
	fclose(f);
	failed = check(dir, "perf.data");
	failed += check(dir, "pipe.data");
	return failed != 0;
}
