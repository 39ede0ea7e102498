/* SPDX-License-Identifier: Apache-2.0 */
/* simdjson's side of `make bench`'s codec table (bench/bench_compare.c):
 * built only when configure finds simdjson (Debian's libsimdjson-dev);
 * nothing but the benchmark uses it.
 *
 *   bench_simdjson parse FILE    simdjson's DOM parse of the file, a fresh
 *                                parser (its buffers allocated in the call)
 *   bench_simdjson minify FILE   simdjson::minify into a fresh buffer of the
 *                                input's size (a floor under the encode)
 *
 * "key value" lines: the CPU time of that call alone (the file is read and
 * padded before the clock starts), the kernel simdjson picked, and a check
 * that the parse saw every record. */
#include <simdjson.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>

static double cpu_s()
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int die(const char *what)
{
    std::fprintf(stderr, "bench_simdjson: %s\n", what);
    return 2;
}

int main(int argc, char **argv)
{
    if (argc != 3 || (std::strcmp(argv[1], "parse") != 0 && std::strcmp(argv[1], "minify") != 0))
        return die("usage: bench_simdjson parse|minify FILE");
    simdjson::padded_string text;
    if (simdjson::padded_string::load(argv[2]).get(text))
        return die("cannot read the input");
    std::printf("kernel %s\n", simdjson::get_active_implementation()->name().c_str());
    if (std::strcmp(argv[1], "parse") == 0) {
        simdjson::dom::parser parser;
        simdjson::dom::array records;
        double t0 = cpu_s();
        simdjson::error_code e = parser.parse(text).get(records);
        double t1 = cpu_s();
        if (e)
            return die(simdjson::error_message(e));
        std::printf("parse_s %.6f\nrecords %zu\n", t1 - t0, records.size());
        return 0;
    }
    double t0 = cpu_s();
    std::unique_ptr<char[]> out(new char[text.size()]);
    size_t n = 0;
    simdjson::error_code e = simdjson::minify(text.data(), text.size(), out.get(), n);
    double t1 = cpu_s();
    if (e)
        return die(simdjson::error_message(e));
    std::printf("minify_s %.6f\nbytes %zu\n", t1 - t0, n);
    return 0;
}
