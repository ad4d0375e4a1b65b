// The reference `scripts/bench` times `ensign validate` against: a C process that reads a
// YAML file with libyaml's event parser and builds nothing. Whatever `ensign validate`
// spends beyond this process is Ensign's own work (start-up, loading, checks, output).
//
// usage: libyaml-scan FILE   (prints the number of events; exit 1 on a read or parse error)
#include <stdio.h>
#if __has_include(<yaml.h>)
#include <yaml.h>
#define HAS_LIBYAML 1
#endif

int main(int argc, char **argv) {
#ifndef HAS_LIBYAML
    (void)argc;
    (void)argv;
    fprintf(stderr, "libyaml-scan: built without libyaml (the YAML trait is off)\n");
    return 1;
#else
    if (argc != 2) {
        fprintf(stderr, "usage: libyaml-scan FILE\n");
        return 2;
    }
    FILE *file = fopen(argv[1], "rb");
    if (file == NULL) {
        perror(argv[1]);
        return 1;
    }
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) {
        fclose(file);
        return 1;
    }
    yaml_parser_set_input_file(&parser, file);
    long events = 0;
    int status = 0;
    for (;;) {
        yaml_event_t event;
        if (!yaml_parser_parse(&parser, &event)) {
            fprintf(stderr, "%s: %s\n", argv[1], parser.problem ? parser.problem : "parse error");
            status = 1;
            break;
        }
        events += 1;
        int isEnd = event.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&event);
        if (isEnd) break;
    }
    yaml_parser_delete(&parser);
    fclose(file);
    if (status == 0) printf("%ld events\n", events);
    return status;
#endif
}
