// SPDX-License-Identifier: MIT
/*
 * test-json-corpus.c - the reference's corpus through the public reader
 * and writer must give the reference decoder's JSON byte for byte.
 *
 * The reference's tests frame their output as
 *	BOM "\n\"<name>\": [" ("\n " event) joined by "," " ]\n"
 * which is our JSON document without its braces: we write the document
 * and take the braces off. EventHeaderInterceptorLE64.dat is rendered with
 * spaces and field tags, perf.data and pipe.data compact, all in file
 * order, every sample meta shown, as the reference's tests do. On a
 * difference the first differing line is printed and the output kept.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <ehdecode/reader.h>
#include <ehdecode/writer.h>

#include "test-files.h"

/* libtraceevent leaks on formats it cannot parse (not ours). */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\n";
}

static void print_line(const char *label, const char *text, size_t len,
		       size_t at)
{
	size_t s = at, e = at;

	while (s > 0 && text[s - 1] != '\n')
		s--;
	while (e < len && text[e] != '\n')
		e++;
	printf("%s: %.*s\n", label, (int)(e - s), text + s);
}

/* Decode @path into @fd as one JSON document; returns events or -1. */
static long decode(const char *path, const char *label, unsigned int wflags,
		   int fd)
{
	struct ehd_reader *r = ehd_reader_new(0);
	struct ehd_writer *w = ehd_writer_new(EHD_OUT_JSON, fd,
					      wflags | EHD_WRITER_BOM,
					      EHD_META_DEFAULT);
	const struct ehd_event *ev;
	uint64_t off = 0;
	long n = 0;
	int err;

	err = ehd_reader_open(r, path);
	ehd_writer_begin(w, label);
	while (!err && (err = ehd_reader_next(r, &ev)) > 0) {
		n++;
		err = ehd_writer_event(w, ev);
		if (err < 0)
			printf("FAIL: %s: event %ld: %s\n", path, n,
			       ehd_writer_error(w, &off));
	}
	if (err < 0 && ehd_reader_error(r, &off))
		printf("FAIL: %s: offset %llu: %s\n", path,
		       (unsigned long long)off, ehd_reader_error(r, &off));
	if (ehd_writer_close(w) < 0) {
		printf("FAIL: %s: writing the output failed\n", path);
		err = -1;
	}
	ehd_writer_free(w);
	ehd_reader_free(r);
	return err < 0 ? -1 : n;
}

static int check(const char *dir, const char *file, const char *label,
		 unsigned int wflags)
{
	char path[4096], *got;
	unsigned char *want;
	size_t want_size, len, i;
	long events;
	int fd = memfd_create("json", 0), ret = 1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.linux.json", dir, file);
	want = tf_slurp(path, &want_size);
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (!want || fd < 0) {
		printf("FAIL: %s: cannot read the expected output\n", path);
		return 1;
	}
	events = decode(path, label, wflags, fd);
	len = (size_t)lseek(fd, 0, SEEK_END);
	got = malloc(len + 1);
	if (events < 0 || !got || pread(fd, got, len, 0) != (ssize_t)len)
		goto out;
	/* BOM "{" ... "\n}\n"  ->  BOM ... "\n" */
	if (len < 7 || memcmp(got, "\xEF\xBB\xBF{", 4) ||
	    memcmp(got + len - 3, "\n}\n", 3)) {
		printf("FAIL: %s: not a JSON document\n", file);
		goto out;
	}
	memmove(got + 3, got + 4, len - 4);
	len -= 3;
	for (i = 0; i < len && i < want_size; i++)
		if (got[i] != (char)want[i])
			break;
	if (i == len && i == want_size) {
		printf("json-corpus: %s: %ld events, %zu bytes: identical to the reference\n",
		       file, events, len);
		ret = 0;
		goto out;
	}
	printf("FAIL: %s differs from the reference at byte %zu (%zu vs %zu bytes)\n",
	       file, i, len, want_size);
	print_line("want", (const char *)want, want_size,
		   i < want_size ? i : want_size - 1);
	print_line("got ", got, len, i < len ? i : len - 1);
	snprintf(path, sizeof(path), "%s.actual.json", file);
	f = fopen(path, "wb");
	if (f) {
		fwrite(got, 1, len, f);
		fclose(f);
		printf("whole output: %s\n", path);
	}
out:
	free(got);
	free(want);
	close(fd);
	return ret;
}

int main(void)
{
	const char *shared = getenv("EH_SHARED_DIR");
	char dir[4096], probe[4200];
	int failed = 0;

	snprintf(dir, sizeof(dir), "%s/conformance/eventheader",
		 shared ? shared : "../shared");
	snprintf(probe, sizeof(probe), "%s/perf.data.linux.json", dir);
	if (access(probe, R_OK)) {
		printf("SKIP: reference corpus not found under %s\n", dir);
		return 77;
	}
	failed += check(dir, "EventHeaderInterceptorLE64.dat",
			"EventHeaderInterceptorLE64.dat",
			EHD_WRITER_SPACE | EHD_WRITER_FIELD_TAGS);
	failed += check(dir, "perf.data", "EventHeaderPerf.data", 0);
	failed += check(dir, "pipe.data", "EventHeaderPerf.data", 0);
	return failed != 0;
}
