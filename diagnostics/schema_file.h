// Reading a user's action schema (`--schema FILE`, the server's `schemaFile` setting) into a
// catalog. Shared by the CLI and the language server so both refuse the same bad files: a
// directory, a FIFO or a device (which would block or read forever) and anything over
// kMaxSchemaBytes get one clear error instead of an exception or a hang.
#pragma once

#include "diagnostics/action_catalog.h"

#include <cstddef>
#include <memory>
#include <string>

namespace blockls {

// Larger schema files are refused (the built-in catalog is about 20 KiB).
inline constexpr size_t kMaxSchemaBytes = 16u * 1024 * 1024;

// The built-in catalog with `path` applied: a `.json` file in the catalog format replaces it,
// any other file is a clada unified-design.yaml merged into it; the built-in catalog alone
// when `path` is empty. On failure returns nullptr and sets `error` to a sentence that names
// the file.
std::unique_ptr<ActionCatalog> load_action_catalog(const std::string& path, std::string* error);

} // namespace blockls
