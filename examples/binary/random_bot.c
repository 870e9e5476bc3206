/* Isle Arena starter bot in C, uploaded as a static executable: a random legal action.
 * See README.md. Build: make (gcc -static). */
#include "arena.h"

int main(void) {
  unsigned long long state = 1;
  char *line;
  while ((line = read_line()) != NULL) {
    json *message = json_parse(line);
    free(line);
    if (!message) return 1;
    const char *type = json_str(json_get(message, "type"));
    if (strcmp(type, "start") == 0) {
      state = (unsigned long long)json_int(json_get(message, "seat")) + 1;
      reply("{\"ready\": true, \"name\": \"random starter (c)\"}");
    } else if (strcmp(type, "decide") == 0) {
      size_t n = json_get(message, "legal")->count;
      state = state * 6364136223846793005ULL + 1442695040888963407ULL; /* a seeded LCG */
      char out[64];
      snprintf(out, sizeof out, "{\"index\": %zu}", (size_t)((state >> 33) % (n ? n : 1)));
      reply(out);
    } else if (strcmp(type, "end") == 0) {
      json_free(message);
      return 0;
    }
    json_free(message);
  }
  return 0;
}
