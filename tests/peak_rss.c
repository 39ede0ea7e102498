/* SPDX-License-Identifier: Apache-2.0 */
/* peak_rss OUT CMD [ARG...]: runs CMD (stdin, stdout and stderr inherited),
 * waits for it and writes "EXIT PEAK_KIB" to the file OUT: its exit status
 * (128 + the signal if one ended it) and its peak resident set size in KiB
 * (getrusage's ru_maxrss of that child, the figure GNU time's "Maximum
 * resident set size" reports). Used by tests/cli-memory.sh; needs nothing
 * beyond POSIX and the BSD/Linux wait4(). */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    struct rusage ru;
    int status, code;
    pid_t pid;
    FILE *out;
    if (argc < 3) {
        fprintf(stderr, "usage: peak_rss OUT CMD [ARG...]\n");
        return 2;
    }
    pid = fork();
    if (pid < 0) {
        perror("peak_rss: fork");
        return 2;
    }
    if (pid == 0) {
        execvp(argv[2], argv + 2);
        perror("peak_rss: exec");
        _exit(127);
    }
    if (wait4(pid, &status, 0, &ru) != pid) {
        perror("peak_rss: wait4");
        return 2;
    }
    code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    out = fopen(argv[1], "w");
    if (!out || fprintf(out, "%d %ld\n", code, (long)ru.ru_maxrss) < 0 || fclose(out) != 0) {
        perror("peak_rss: writing the result");
        return 2;
    }
    return 0;
}
