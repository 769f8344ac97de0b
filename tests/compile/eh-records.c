// SPDX-License-Identifier: MIT
/*
 * eh-records - list the records of an EH_INTERCEPTOR file, for
 * compile-test.sh
 *
 * Usage: eh-records FILE
 *
 * Prints one line per record:
 *
 *	<tracepoint name> <event name> <field count> <payload bytes>
 *
 * and exits 1 if the file is not a well-formed sequence of records of
 * well-formed events (written by this machine: native byte order).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <eventheader/eventheader.h>

static int bad(const char *what, long rec)
{
	fprintf(stderr, "eh-records: record %ld: %s\n", rec, what);
	return 1;
}

/* Length of the NUL-terminated string at p, or -1 if it runs past end. */
static long str_len(const unsigned char *p, const unsigned char *end)
{
	const unsigned char *s = p;

	while (s < end && *s)
		s++;
	return s < end ? (long)(s - p) : -1;
}

static int one_event(const unsigned char *ev, size_t size, const char *tp,
		     long rec)
{
	const unsigned char *p = ev, *end = ev + size, *meta = 0;
	const unsigned char *mend = 0;
	struct eh_header h;
	struct eh_extension x;
	unsigned int fields = 0;
	const char *name;
	long n;

	if (size < sizeof(h))
		return bad("event shorter than its header", rec);
	memcpy(&h, p, sizeof(h));
	p += sizeof(h);
	if (h.flags & EH_FLAG_EXTENSION) {
		do {
			if ((size_t)(end - p) < sizeof(x))
				return bad("truncated extension", rec);
			memcpy(&x, p, sizeof(x));
			p += sizeof(x);
			if ((size_t)(end - p) < x.size)
				return bad("extension past the end", rec);
			if ((x.kind & EH_EXT_KIND_MASK) == EH_EXT_METADATA) {
				meta = p;
				mend = p + x.size;
			}
			p += x.size;
		} while (x.kind & EH_EXT_CHAIN_FLAG);
	}
	if (!meta)
		return bad("no metadata extension", rec);
	n = str_len(meta, mend);
	if (n < 0)
		return bad("event name not terminated", rec);
	name = (const char *)meta;
	meta += n + 1;
	while (meta < mend) {
		uint8_t enc, fmt = 0;

		n = str_len(meta, mend);
		if (n < 0 || meta + n + 2 > mend)
			return bad("bad field declaration", rec);
		meta += n + 1;
		enc = *meta++;
		if (enc & EH_ENC_CHAIN_FLAG) {
			if (meta >= mend)
				return bad("missing format byte", rec);
			fmt = *meta++;
		}
		if (fmt & EH_FMT_CHAIN_FLAG)
			meta += 2;
		if (enc & EH_ENC_CARRAY_FLAG)
			meta += 2;
		if (meta > mend)
			return bad("field declaration past the end", rec);
		fields++;
	}
	printf("%s %s %u %ld\n", tp, name, fields, (long)(end - p));
	return 0;
}

int main(int argc, char **argv)
{
	static unsigned char buf[16 << 20];
	size_t size, off = 0;
	long rec = 0;
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: eh-records FILE\n");
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	size = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	while (off < size) {
		const unsigned char *r = buf + off;
		uint32_t len;
		long n;

		if (size - off < 4)
			return bad("truncated size", rec);
		len = (uint32_t)r[0] | (uint32_t)r[1] << 8 |
		      (uint32_t)r[2] << 16 | (uint32_t)r[3] << 24;
		if (len < 4 + 1 + sizeof(struct eh_header) || len > size - off)
			return bad("bad record size", rec);
		n = str_len(r + 4, r + len);
		if (n < 1)
			return bad("bad tracepoint name", rec);
		if (one_event(r + 4 + n + 1, len - 4 - (size_t)n - 1,
			      (const char *)r + 4, rec))
			return 1;
		off += len;
		rec++;
	}
	return 0;
}
