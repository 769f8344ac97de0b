// SPDX-License-Identifier: MIT
/*
 * replay.c - run a fuzz target without libFuzzer, for make check:
 *
 *	replay [-m MUTATIONS] FILE.dat
 *
 * Feeds the target every record of an interceptor file (as "name\0event"),
 * every prefix of each record, and MUTATIONS seeded single-byte mutations
 * of random records (default 10000). Built with --enable-sanitizers, any
 * memory error or undefined behaviour ends the run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

struct input {
	unsigned char *p;
	size_t size;
};

int main(int argc, char **argv)
{
	unsigned long mutations = 10000, runs = 0, i;
	struct input *in = NULL;
	size_t n_in = 0, off = 0, size;
	unsigned char *buf, *tmp;
	unsigned int seed = 12345;
	FILE *f;
	int arg = 1;

	if (argc > 2 && strcmp(argv[1], "-m") == 0) {
		mutations = strtoul(argv[2], NULL, 0);
		arg = 3;
	}
	if (arg >= argc) {
		fprintf(stderr, "usage: replay [-m N] FILE.dat\n");
		return 2;
	}
	f = fopen(argv[arg], "rb");
	if (!f) {
		printf("SKIP: %s not found\n", argv[arg]);
		return 77;
	}
	buf = malloc(1 << 20);
	size = fread(buf, 1, 1 << 20, f);
	fclose(f);
	while (off + 4 <= size) {
		size_t rlen = buf[off] | buf[off + 1] << 8 |
			      buf[off + 2] << 16 | (size_t)buf[off + 3] << 24;

		if (rlen < 5 || rlen > size - off)
			break;
		in = realloc(in, (n_in + 1) * sizeof(*in));
		in[n_in].size = rlen - 4;
		in[n_in].p = malloc(rlen - 4);
		memcpy(in[n_in].p, buf + off + 4, rlen - 4);
		n_in++;
		off += rlen;
	}
	for (i = 0; i < n_in; i++) {
		size_t len;

		/* Each prefix in its own allocation, so ASan sees overreads. */
		for (len = 0; len <= in[i].size; len++) {
			tmp = malloc(len ? len : 1);
			memcpy(tmp, in[i].p, len);
			LLVMFuzzerTestOneInput(tmp, len);
			free(tmp);
			runs++;
		}
	}
	for (i = 0; n_in && i < mutations; i++) {
		const struct input *s = &in[rand_r(&seed) % n_in];

		tmp = malloc(s->size);
		memcpy(tmp, s->p, s->size);
		tmp[rand_r(&seed) % s->size] = (unsigned char)rand_r(&seed);
		LLVMFuzzerTestOneInput(tmp, s->size);
		free(tmp);
		runs++;
	}
	printf("replay: %zu records, %lu inputs (every prefix, %lu mutations), no crash\n",
	       n_in, runs, mutations);
	for (i = 0; i < n_in; i++)
		free(in[i].p);
	free(in);
	free(buf);
	return 0;
}
