# Writes OUT, a C++ source defining `extern const std::string_view NAME` with IN's bytes.
file(READ "${IN}" content HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," content "${content}")
file(WRITE "${OUT}" "// Generated from ${IN}; do not edit.\n#include <string_view>\n"
  "namespace blockls::embedded { static const char data_${NAME}[] = {${content} 0};\n"
  "extern const std::string_view ${NAME};\n"
  "const std::string_view ${NAME}(data_${NAME}, sizeof(data_${NAME}) - 1); }\n")
