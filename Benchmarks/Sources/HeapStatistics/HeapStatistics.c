#define _GNU_SOURCE
#include "HeapStatistics.h"

// Any C library header defines the library's macros (the header above includes only the
// compiler's stddef.h).
#include <stdlib.h>

#if defined(__GLIBC__)
#include <malloc.h>
#include <stdio.h>
#include <string.h>

// The last value of `attribute` in the element that starts with `prefix`, or 0.
static size_t last_value(const char *xml, const char *prefix, const char *attribute) {
  size_t value = 0;
  for (const char *at = strstr(xml, prefix); at; at = strstr(at + 1, prefix)) {
    const char *field = strstr(at, attribute);
    const char *end = strchr(at, '>');
    if (field && end && field < end) value = strtoull(field + strlen(attribute), NULL, 10);
  }
  return value;
}

// glibc's mallinfo2 reports the main arena only, and Swift's tasks allocate from the arenas
// of their worker threads, so read the totals over all arenas from malloc_info instead:
// memory obtained from the system, less the free chunks, plus the mmapped blocks.
size_t heap_bytes_in_use(void) {
  char *xml = NULL;
  size_t length = 0;
  FILE *stream = open_memstream(&xml, &length);
  if (!stream) return 0;
  malloc_info(0, stream);
  fclose(stream);
  size_t system = last_value(xml, "<system type=\"current\"", "size=\"");
  size_t fast = last_value(xml, "<total type=\"fast\"", "size=\"");
  size_t rest = last_value(xml, "<total type=\"rest\"", "size=\"");
  size_t mmapped = last_value(xml, "<total type=\"mmap\"", "size=\"");
  free(xml);
  return system - fast - rest + mmapped;
}
#elif defined(__APPLE__)
#include <malloc/malloc.h>

size_t heap_bytes_in_use(void) {
  malloc_statistics_t stats;
  malloc_zone_statistics(NULL, &stats);
  return stats.size_in_use;
}
#else
size_t heap_bytes_in_use(void) { return 0; }
#endif
