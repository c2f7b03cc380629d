// The action catalog (spec: ../shared/spec/actions.md): every action, its accepted names per
// dialect and its parameters. Built in from diagnostics/action_catalog.json; a user schema
// in clada's unified-design.yaml format may add or change actions.
#pragma once

#include "grammar/model.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blockls {

enum class ParamType { string, integer, boolean, enumeration };

struct ParamSpec {
  std::string name; // canonical (NESL key): "old_text"
  ParamType type = ParamType::string;
  bool required = false;
  bool is_path = false;                // a filesystem path (trimmed; checked against roots)
  bool multiline_paths = false;        // one path per line
  bool absolute_path = false;          // format: absolute_path (user schemas only)
  std::vector<std::string> values;     // enumeration values
  std::vector<std::string> telt_names; // "OLD_TEXT" (+ aliases such as "FILE" for path)
};

struct ActionSpec {
  std::string name;                    // canonical: "file_write"
  std::vector<std::string> nesl_names; // canonical + aliases: "write_file", "create_file", ...
  std::vector<std::string> telt_names; // "FILE_WRITE", "CREATE_FILE", ...
  std::string description;
  std::vector<ParamSpec> params;

  const ParamSpec* find_param(std::string_view nesl_key) const;
  const ParamSpec* find_telt_param(std::string_view telt_name) const;
  // The parameter `name` names in `dialect` (its catalog rules say which names it uses).
  const ParamSpec* find_param(Dialect dialect, std::string_view name) const;
  // The name of `p` as `dialect` writes it (TELT `OLD_TEXT`, NESL `old_text`).
  static std::string_view display_name(const ParamSpec& p, Dialect dialect);
};

class ActionCatalog {
public:
  static const ActionCatalog& builtin();
  // Parses the catalog JSON format (see diagnostics/action_catalog.json).
  static std::optional<ActionCatalog> from_json(std::string_view json, std::string* error);
  // Adds or replaces actions from a clada unified-design.yaml schema.
  bool merge_schema_yaml(std::string_view yaml, std::string* error);

  const std::vector<ActionSpec>& actions() const { return actions_; }
  const ActionSpec* find_nesl(std::string_view name) const;
  const ActionSpec* find_telt(std::string_view name) const;
  // The action `name` names in `dialect` (its catalog rules say which names it uses).
  const ActionSpec* find(Dialect dialect, std::string_view name) const;
  // The accepted action names of `dialect`, once each (see all_nesl_names()).
  const std::vector<std::string>& all_names(Dialect dialect) const;
  // Bit i set when parameter i of `spec` (an action of this catalog with at most 64
  // parameters) is required: one test for all of them in the validation of each command.
  uint64_t required_mask(const ActionSpec& spec) const {
    return required_masks_[static_cast<size_t>(&spec - actions_.data())];
  }
  // Every accepted NESL action name / TELT command name, once each, in catalog order: the
  // candidates of a "did you mean" fix, kept here so that no unknown name copies them all.
  const std::vector<std::string>& all_nesl_names() const { return all_nesl_names_; }
  const std::vector<std::string>& all_telt_names() const { return all_telt_names_; }

private:
  // Name -> index in actions_: open addressing over a hash of the name's length and its first
  // and last eight bytes (hash()). Names are few and short and
  // a lookup runs for every command of a document, so this beats a node-based hash map.
  class NameIndex {
  public:
    void clear();
    // Records `name` unless it is there already (the first action with a name wins).
    void emplace(const std::string& name, size_t action);
    // The action index of `name`, or nullptr.
    const size_t* find(std::string_view name) const;

  private:
    struct Slot {
      bool used = false;
      uint64_t hash = 0;
      size_t action = 0;
      std::string name;
    };
    static uint64_t hash(std::string_view name);
    void insert(Slot slot);
    std::vector<Slot> slots_; // size a power of two, at most half full
    size_t size_ = 0;
  };
  // Rebuilds the name indexes and the required masks after actions_ changed (the first
  // action with a name wins, as a scan in order would find it).
  void reindex();

  std::vector<ActionSpec> actions_;
  NameIndex nesl_index_;                 // NESL name -> index in actions_
  NameIndex telt_index_;                 // TELT name -> index in actions_
  std::vector<uint64_t> required_masks_; // of each action (see required_mask())
  std::vector<std::string> all_nesl_names_, all_telt_names_; // see all_nesl_names()
};

} // namespace blockls
