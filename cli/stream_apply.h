// `blockls stream --apply --root DIR`: each block is applied the moment its `block_end` has
// been written — only a valid one, all or nothing and journaled exactly as `blockls apply`
// does, through the same loop (apply/run.h) — and an `applied` or `skipped` event follows
// (docs/stream.md).
#pragma once

#include "apply/beneath_source.h"
#include "apply/config.h"
#include "apply/journal.h"
#include "apply/simulate.h"
#include "cli/apply_command.h"
#include "diagnostics/check.h"

#include <iosfwd>
#include <memory>
#include <nlohmann/json.hpp>
#include <string_view>

namespace blockls::cli {

class StreamApplier {
public:
  // `request`: the root, allowed roots, deny globs, exec, dry run of `apply`; `catalog` the
  // actions (null: the built-in catalog).
  StreamApplier(const ApplyRequest& request, const ActionCatalog* catalog);
  // Resolves the root, takes the root's lock and rolls back what an interrupted run left
  // (its messages on `err`); false after saying why on `err`.
  bool start(std::ostream& err);
  // Runs block `block` of `checked` (the check of `text`, or of the part of it the stream
  // checked last) and returns its event. Called once per block, in order (the hook of
  // StreamSession).
  nlohmann::json apply_block(std::string_view text, const CheckedDocument& checked, size_t block);

  bool any_failed() const { return any_failed_; } // a valid block could not be applied
  bool io_error() const { return io_error_; }     // ... because of an I/O error

private:
  ApplyRequest request_;
  const ActionCatalog* catalog_;
  apply::ApplyConfig config_;
  apply::StateDir state_;
  // The files under the roots, read from their descriptors (a directory swapped for a link by
  // another process never reads as a file outside): what --dry-run's blocks see.
  apply::Beneath roots_;
  apply::BeneathSource disk_{roots_};
  apply::Overlay dry_state_{disk_}; // --dry-run: what the earlier blocks would have done
  size_t planned_actions_ = 0;      // the actions of the blocks so far (the next one's seq follows)
  // Blocks applied or skipped so far: `block` indexes only the part the stream checked last.
  size_t blocks_seen_ = 0;
  bool any_failed_ = false, io_error_ = false;
};

} // namespace blockls::cli
