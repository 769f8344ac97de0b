// SPDX-License-Identifier: MIT
/*
 * plt-ibt - a program linked with an IBT PLT (-z ibtplt: its calls go
 * through .plt.sec, endbr64 first), for test-symbols to name its PLT
 * entries. Run, it prints its arguments' lengths.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		printf("%zu\n", strlen(argv[i]));
	return argc > 1 ? EXIT_SUCCESS : EXIT_FAILURE;
}
