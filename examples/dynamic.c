// SPDX-License-Identifier: MIT
/*
 * dynamic - events whose provider, names and fields are chosen at run time
 *
 *	dynamic [-p PROVIDER] [-g GROUP] [EVENT [NAME=VALUE]...]
 *
 * With the dynamic API (eh-dynamic.h) it opens PROVIDER (default
 * EhExample_Dynamic, in GROUP if given) and writes two events:
 *
 *	EVENT (default "Args")  level 4, keyword 0x1: one field per
 *	                        NAME=VALUE, a signed 64-bit integer when VALUE
 *	                        is one, a double when it is another number,
 *	                        else a string
 *	"Summary"               level 5, keyword 0x2: a struct "args" with the
 *	                        number of fields and the length of each value
 *
 * to the tracepoints PROVIDER_L4K1 and PROVIDER_L5K2 (with "G<group>" at
 * the end of both when there is a group). For example:
 *
 *	ehrecord -o dynamic.nettrace -e EhExample_Dynamic_L4K1 \
 *		-e EhExample_Dynamic_L5K2 -- ./dynamic Login user=alice tries=3
 *	ehdecode -F text dynamic.nettrace
 *
 * Exit status 0, with or without tracing; 2 for a bad command line or a
 * provider name or group the dynamic API refuses.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <eventheader/eh-dynamic.h>

static int usage(void)
{
	fprintf(stderr, "usage: dynamic [-p PROVIDER] [-g GROUP] [EVENT [NAME=VALUE]...]\n");
	return 2;
}

/* One field for NAME=VALUE, typed by what VALUE looks like. */
static int add_field(struct eh_dyn_builder *b, const char *name,
		     const char *value)
{
	char *end;
	long long i;
	double d;

	errno = 0;
	i = strtoll(value, &end, 0);
	if (*value && !*end && !errno) {
		int64_t v = i;

		return eh_dyn_builder_add_value(b, name, &v, sizeof(v),
						EH_FMT_SIGNED_INT, 0);
	}
	d = strtod(value, &end);
	if (*value && !*end)
		return eh_dyn_builder_add_value(b, name, &d, sizeof(d),
						EH_FMT_FLOAT, 0);
	return eh_dyn_builder_add_zstring8(b, name, value, 0, 0);
}

/* The event named on the command line, with its NAME=VALUE fields. */
static int write_args(struct eh_dyn_builder *b, struct eh_dyn_set *set,
		      const char *event, char **args, int n)
{
	char name[256];
	int i;

	if (!eh_dyn_set_enabled(set))
		return EBADF;	/* nobody listens: build nothing */
	eh_dyn_builder_reset(b, event, 0);
	for (i = 0; i < n; i++) {
		size_t len = strcspn(args[i], "=");

		snprintf(name, sizeof(name), "%.*s", (int)len, args[i]);
		add_field(b, name, args[i] + len + 1);
	}
	/* Errors of the adds are kept in the builder and returned here. */
	return eh_dyn_builder_write(b, set, NULL, NULL);
}

/* "Summary": a struct of a count and an array of lengths. */
static int write_summary(struct eh_dyn_builder *b, struct eh_dyn_set *set,
			 char **args, int n)
{
	uint32_t lengths[64];
	uint32_t count = (uint32_t)n;
	int i;

	if (!eh_dyn_set_enabled(set))
		return EBADF;
	for (i = 0; i < n && i < 64; i++)
		lengths[i] = (uint32_t)strlen(strchr(args[i], '=') + 1);
	eh_dyn_builder_reset(b, "Summary", 0);
	eh_dyn_builder_add_struct(b, "args", 2, 0, NULL);
	eh_dyn_builder_add_value(b, "count", &count, sizeof(count), 0, 0);
	eh_dyn_builder_add_values(b, "lengths", lengths, (size_t)i,
				  sizeof(lengths[0]), 0, 0);
	return eh_dyn_builder_write(b, set, NULL, NULL);
}

int main(int argc, char **argv)
{
	const char *provider = "EhExample_Dynamic", *group = NULL;
	const char *event = "Args";
	struct eh_dyn_builder b = EH_DYN_BUILDER_INIT;
	struct eh_dyn_provider prov;
	struct eh_dyn_set *args_set, *summary_set;
	int c, i, err, written = 0;

	while ((c = getopt(argc, argv, "p:g:")) != -1) {
		if (c == 'p')
			provider = optarg;
		else if (c == 'g')
			group = optarg;
		else
			return usage();
	}
	if (optind < argc)
		event = argv[optind++];
	for (i = optind; i < argc; i++)
		if (!strchr(argv[i], '=') || argv[i][0] == '=')
			return usage();
	if (argc - optind > 64) {
		fprintf(stderr, "dynamic: at most 64 fields\n");
		return 2;
	}

	err = eh_dyn_provider_open(&prov, provider, group);
	if (err == EINVAL) {
		fprintf(stderr, "dynamic: bad provider name or group: %s%s%s\n",
			provider, group ? " " : "", group ? group : "");
		eh_dyn_provider_close(&prov);
		return 2;
	}
	if (err)
		fprintf(stderr, "dynamic: tracing unavailable (%s); running anyway\n",
			strerror(err));
	/* A set per level and keyword: one tracepoint each. */
	args_set = eh_dyn_provider_register_set(&prov, EH_LEVEL_INFO, 0x1);
	summary_set = eh_dyn_provider_register_set(&prov, EH_LEVEL_VERBOSE, 0x2);

	if (write_args(&b, args_set, event, argv + optind, argc - optind) == 0)
		written++;
	if (write_summary(&b, summary_set, argv + optind, argc - optind) == 0)
		written++;

	eh_dyn_builder_destroy(&b);
	eh_dyn_provider_close(&prov);
	printf("dynamic: %d of 2 events written\n", written);
	return 0;
}
