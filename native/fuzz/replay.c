/* A main() for a fuzz target without libFuzzer: runs LLVMFuzzerTestOneInput once on each file
 * named on the command line. scripts/leakcheck.sh links each target with it, unsanitized, and runs
 * it under valgrind over the seeds, the corpora and the regressions. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); return 1; }
    size_t cap = 1 << 16, n = 0, got;
    uint8_t *data = malloc(cap);
    while (data && (got = fread(data + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            uint8_t *bigger = realloc(data, cap * 2);
            if (!bigger) { free(data); data = NULL; break; }
            data = bigger;
            cap *= 2;
        }
    }
    fclose(f);
    if (!data) { fprintf(stderr, "%s: out of memory\n", path); return 1; }
    LLVMFuzzerTestOneInput(data, n);
    free(data);
    return 0;
}

int main(int argc, char **argv) {
    LLVMFuzzerInitialize(&argc, &argv);
    int failed = 0;
    for (int k = 1; k < argc; k++) failed |= run_file(argv[k]);
    printf("replayed %d inputs\n", argc - 1);
    return failed;
}
