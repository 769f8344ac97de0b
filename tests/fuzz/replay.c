// SPDX-License-Identifier: MIT
/*
 * replay.c - run a fuzz target without libFuzzer, for make check:
 *
 *	replay [-m MUTATIONS] FILE.dat
 *	replay -w [-m MUTATIONS] [-s STEP] FILE
 *
 * Feeds the target every record of an interceptor file (as "name\0event"),
 * every prefix of each record, and MUTATIONS seeded single-byte mutations
 * of random records (default 10000). With -w the whole FILE is one input:
 * its prefixes at every STEP bytes (default 97) and MUTATIONS mutations
 * of it. Built with --enable-sanitizers, any memory error or undefined
 * behaviour ends the run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test-files.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

struct input {
	unsigned char *p;
	size_t size;
};

int main(int argc, char **argv)
{
	unsigned long mutations = 10000, runs = 0, i, step = 97;
	int whole = 0;
	struct input *in = NULL;
	size_t n_in = 0, off = 0, size;
	unsigned char *buf, *tmp;
	struct tf_record rec;
	unsigned int seed = 12345;
	int arg = 1;

	while (arg + 1 < argc && argv[arg][0] == '-') {
		if (strcmp(argv[arg], "-w") == 0) {
			whole = 1;
			arg++;
			continue;
		}
		if (strcmp(argv[arg], "-m") == 0)
			mutations = strtoul(argv[arg + 1], NULL, 0);
		else if (strcmp(argv[arg], "-s") == 0)
			step = strtoul(argv[arg + 1], NULL, 0);
		else
			break;
		arg += 2;
	}
	if (arg >= argc || !step) {
		fprintf(stderr, "usage: replay [-w] [-m N] [-s STEP] FILE\n");
		return 2;
	}
	buf = tf_slurp(argv[arg], &size);
	if (!buf) {
		printf("SKIP: %s not found\n", argv[arg]);
		return 77;
	}
	if (whole) {
		in = malloc(sizeof(*in));
		in[0].p = malloc(size);
		memcpy(in[0].p, buf, size);
		in[0].size = size;
		n_in = 1;
	}
	while (!whole && tf_dat_next(buf, size, &off, &rec) > 0) {
		in = realloc(in, (n_in + 1) * sizeof(*in));
		in[n_in].size = rec.record_size;
		in[n_in].p = malloc(rec.record_size);
		memcpy(in[n_in].p, rec.record, rec.record_size);
		n_in++;
	}
	for (i = 0; i < n_in; i++) {
		size_t len;

		/* Each prefix in its own allocation, so ASan sees overreads. */
		for (len = 0; len <= in[i].size;
		     len += whole && len + step <= in[i].size ? step : 1) {
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
	printf("replay: %s: %zu input(s), %lu runs (prefixes every %lu bytes, %lu mutations), no crash\n",
	       argv[arg], n_in, runs, whole ? step : 1, mutations);
	for (i = 0; i < n_in; i++)
		free(in[i].p);
	free(in);
	free(buf);
	return 0;
}
