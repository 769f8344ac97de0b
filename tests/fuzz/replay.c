// SPDX-License-Identifier: MIT
/*
 * replay.c - run a fuzz target without libFuzzer, for make check:
 *
 *	replay [-m MUTATIONS] FILE.dat
 *	replay -w [-m MUTATIONS] [-s STEP] FILE
 *	replay -c [-m MUTATIONS] DIR...
 *
 * Feeds the target every record of an interceptor file (as "name\0event"),
 * every prefix of each record, and MUTATIONS seeded single-byte mutations
 * of random records (default 10000). With -w the whole FILE is one input:
 * its prefixes at every STEP bytes (default 97) and MUTATIONS mutations
 * of it. With -c every file of each DIR (a libFuzzer corpus) is one
 * input, run as it is, then MUTATIONS mutations of random ones. Built
 * with --enable-sanitizers, any memory error or undefined behaviour ends
 * the run.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "test-files.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

struct input {
	unsigned char *p;
	size_t size;
};

/* One run, on a copy of its own, so that ASan sees overreads. */
static void run_one(const unsigned char *p, size_t len)
{
	unsigned char *tmp = malloc(len ? len : 1);

	memcpy(tmp, p, len);
	LLVMFuzzerTestOneInput(tmp, len);
	free(tmp);
}

static void add_input(struct input **in, size_t *n_in, unsigned char *p,
		      size_t size)
{
	*in = realloc(*in, (*n_in + 1) * sizeof(**in));
	(*in)[*n_in].p = p;
	(*in)[*n_in].size = size;
	(*n_in)++;
}

/* Every regular file of @dir, in name order, as one input; -1 if none. */
static int add_dir(const char *dir, struct input **in, size_t *n_in)
{
	struct dirent **names;
	char path[4096];
	struct stat st;
	size_t size;
	int n, i, added = 0;

	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		unsigned char *p;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		if (names[i]->d_name[0] != '.' && !stat(path, &st) &&
		    S_ISREG(st.st_mode) && (p = tf_slurp(path, &size))) {
			add_input(in, n_in, p, size);
			added++;
		}
		free(names[i]);
	}
	free(names);
	return added ? 0 : -1;
}

int main(int argc, char **argv)
{
	unsigned long mutations = 10000, runs = 0, i, step = 97;
	int whole = 0, corpus = 0;
	struct input *in = NULL;
	size_t n_in = 0, off = 0, size;
	unsigned char *buf = NULL, *tmp;
	struct tf_record rec;
	unsigned int seed = 12345;
	int arg = 1;

	while (arg + 1 < argc && argv[arg][0] == '-') {
		if (strcmp(argv[arg], "-w") == 0 || strcmp(argv[arg], "-c") == 0) {
			whole |= argv[arg][1] == 'w';
			corpus |= argv[arg][1] == 'c';
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
		fprintf(stderr, "usage: replay [-w] [-m N] [-s STEP] FILE\n"
				"       replay -c [-m N] DIR...\n");
		return 2;
	}
	if (corpus) {
		for (i = (unsigned long)arg; i < (unsigned long)argc; i++)
			if (add_dir(argv[i], &in, &n_in)) {
				fprintf(stderr, "replay: %s: no input files\n",
					argv[i]);
				return 1;
			}
		for (i = 0; i < n_in; i++, runs++)
			run_one(in[i].p, in[i].size);
	} else {
		buf = tf_slurp(argv[arg], &size);
		if (!buf) {
			printf("SKIP: %s not found\n", argv[arg]);
			return 77;
		}
		if (whole) {
			tmp = malloc(size ? size : 1);
			memcpy(tmp, buf, size);
			add_input(&in, &n_in, tmp, size);
		}
		while (!whole && tf_dat_next(buf, size, &off, &rec) > 0) {
			tmp = malloc(rec.record_size);
			memcpy(tmp, rec.record, rec.record_size);
			add_input(&in, &n_in, tmp, rec.record_size);
		}
	}
	for (i = 0; !corpus && i < n_in; i++) {
		size_t len;

		for (len = 0; len <= in[i].size;
		     len += whole && len + step <= in[i].size ? step : 1) {
			run_one(in[i].p, len);
			runs++;
		}
	}
	for (i = 0; n_in && i < mutations; i++) {
		const struct input *s = &in[rand_r(&seed) % n_in];

		if (!s->size)
			continue;
		tmp = malloc(s->size);
		memcpy(tmp, s->p, s->size);
		tmp[rand_r(&seed) % s->size] = (unsigned char)rand_r(&seed);
		LLVMFuzzerTestOneInput(tmp, s->size);
		free(tmp);
		runs++;
	}
	if (corpus)
		printf("replay: %s: %zu input(s), %lu runs (each as it is, %lu mutations), no crash\n",
		       argv[arg], n_in, runs, mutations);
	else
		printf("replay: %s: %zu input(s), %lu runs (prefixes every %lu bytes, %lu mutations), no crash\n",
		       argv[arg], n_in, runs, whole ? step : 1, mutations);
	for (i = 0; i < n_in; i++)
		free(in[i].p);
	free(in);
	free(buf);
	return 0;
}
