#include "playout/gamma.h"

#include "absl/strings/numbers.h"
#include "features/radius3.h"
#include "features/tactics.h"
#include "playout/rules.h"
#include "playout/switch.h"
#include "predict/load.h"

namespace hane {

GammaPolicy::GammaPolicy(std::shared_ptr<const GammaModel> model) : model_(std::move(model)) {
  reset(Board(19), Color::kBlack);
}

void GammaPolicy::reset(const Board& board, Color to_move, Vertex last, Vertex second_last) {
  board_ = board;
  tracker_.reset(board_);
  to_move_ = to_move;
  last_ = last;
  second_last_ = second_last;
  const int n = board_.size();
  const int stride = board_.stride();
  number_points(board_, slot_of_, vertex_of_);
  for (int i = 0; i < 12; ++i) radius3_offsets_[i] = kPatternOffsets[i].dy * stride + kPatternOffsets[i].dx;
  for (int i = 0; i < 12; ++i) radius3_offsets_[12 + i] = kRing3Offsets[i].dy * stride + kRing3Offsets[i].dx;
  for (int c = 0; c < 2; ++c) {
    tree_[c].reset(n * n);
    pending_[c].clear();
    weak_[c].clear();
    context_[c].clear();
    centre_[c] = centre2_[c] = Vertex::none();
    full_[c] = true;
    synced_[c] = false;
  }
}

void GammaPolicy::mark_liberties(Vertex chain) {
  const int k = board_.liberties_of(chain, liberties_);
  for (int i = 0; i < k; ++i) mark(liberties_[i].index());
}

void GammaPolicy::mark_atari_neighbours(Vertex chain) {
  const Color other = opponent(board_.color(chain));
  Vertex s = chain;
  do {
    for (Vertex u : board_.neighbours(s)) {
      if (board_.color(u) == other && board_.liberties(u) == 1) mark(board_.first_liberty(u).index());
    }
    s = board_.next_in_chain(s);
  } while (s != chain);
}

void GammaPolicy::rate(int p, Color c, const Position& position) {
  ++rerated_;
  const int k = ci(c);
  const Vertex v(p);
  code_[k][p] = static_cast<uint32_t>(tracker_.code(v, PatternShape::k3x3));
  if (!board_.is_empty(v) || board_.legal(v, c) != Legality::kLegal || board_.is_eye(v, c)) {
    base_[k][p] = 0;
    return;
  }
  GammaFeatures f = gamma_features(position, v, static_cast<uint32_t>(tracker_.code(v, PatternShape::k3x3, c)));
  f.flag[kGammaDistance] = f.flag[kGammaDistance2] = 0;
  features_[k][p] = f;
  base_[k][p] = model_->strength(f);
}

namespace {
int distance_value(const Geometry& g, Vertex v, Vertex move) {
  if (!move.is_point()) return 0;
  const int d = move_distance(g, v, move);
  return d >= 2 && d <= 4 ? d - 1 : 0;
}
}  // namespace

void GammaPolicy::place(int p, Color c) {
  const int k = ci(c);
  const double base = base_[k][p];
  if (base == 0) {
    tree_[k].set(slot_of_[p], 0.0);
    return;
  }
  GammaFeatures& f = features_[k][p];
  const Vertex v(p);
  f.flag[kGammaDistance] = static_cast<uint8_t>(distance_value(board_.geometry(), v, last_));
  f.flag[kGammaDistance2] = static_cast<uint8_t>(distance_value(board_.geometry(), v, second_last_));
  double s = base;
  if (f.flag[kGammaDistance]) s *= model_->gammas[model_->flag_index(kGammaDistance, f.flag[kGammaDistance])];
  if (f.flag[kGammaDistance2]) s *= model_->gammas[model_->flag_index(kGammaDistance2, f.flag[kGammaDistance2])];
  tree_[k].set(slot_of_[p], s);
}

void GammaPolicy::sync(Color c) {
  const int k = ci(c);
  if (synced_[k]) return;
  synced_[k] = true;
  const Position position{&board_, c, last_, second_last_};
  const int stride = board_.stride();
  if (full_[k]) {
    for (int16_t p : vertex_of_) rate(p, c, position), place(p, c);
    full_[k] = false;
  } else {
    auto strong = [&](int16_t p) {
      if (mark_[k][p] != epoch_[k]) mark_[k][p] = epoch_[k], pending_[k].push_back(p);
    };
    for (int16_t p : context_[k]) strong(p);
    scratch_.clear();
    gamma_response_points(position, scratch_);
    for (int16_t p : scratch_) strong(p);
    // Dirty points whose 3x3 code is as rated, that were candidates and cannot be nakade vital
    // points keep their base.
    for (int16_t p : weak_[k]) {
      if (mark_[k][p] == epoch_[k]) continue;
      const Vertex v(p);
      if (base_[k][p] != 0 && board_.is_empty(v) && code_[k][p] == static_cast<uint32_t>(tracker_.code(v, PatternShape::k3x3)) &&
          features_[k][p].flag[kGammaNakade] == 0 && !nakade_possible(tracker_.black_code(v))) {
        continue;
      }
      strong(p);
    }
    for (int16_t p : pending_[k]) rate(p, c, position), place(p, c);
    // The distance part of the diamonds of the old and new last two moves.
    // (The old last move is normally the new second-last: each centre once.)
    for (Vertex centre : {centre_[k], centre2_[k], last_, second_last_}) {
      if (!centre.is_point()) continue;
      if (centre == centre_[k] && (centre == second_last_ || centre == last_)) continue;
      if (centre == centre2_[k] && (centre == second_last_ || centre == last_ || centre == centre_[k])) continue;
      if (centre == second_last_ && centre == last_) continue;
      for (const PatternOffset& o : kPatternOffsets) {
        const int p = centre.index() + o.dy * stride + o.dx;
        if (slot_of_[p] >= 0) place(p, c);
      }
    }
  }
  context_[k].clear();
  gamma_response_points(position, context_[k]);
  centre_[k] = last_;
  centre2_[k] = second_last_;
  pending_[k].clear();
  weak_[k].clear();
  if (++epoch_[k] == 0) {
    mark_[k].fill(0);
    weak_mark_[k].fill(0);
    epoch_[k] = 1;
  }
}

void GammaPolicy::play(Vertex v) {
  const Color c = to_move_;
  const Vertex old_ko = board_.ko_point();
  if (!v.is_point()) {
    board_.play(v, c);
    tracker_.update(board_, v);
    if (old_ko.is_point()) mark(old_ko.index());
  } else {
    // Before the move: the mover's chains whose liberties the move changes while they have at
    // most 4 (those next to v, and those next to the opponent chains it captures).
    before_.clear();
    for (Vertex n : board_.neighbours(v)) {
      if (!board_.is_stone(n)) continue;
      if (board_.color(n) == c) {
        if (board_.liberties(n) <= 4) before_.push_back(static_cast<int16_t>(n.index()));
      } else if (board_.liberties(n) == 1) {
        Vertex s = n;
        do {
          for (Vertex u : board_.neighbours(s)) {
            if (board_.color(u) == c && board_.liberties(u) <= 4) before_.push_back(static_cast<int16_t>(u.index()));
          }
          s = board_.next_in_chain(s);
        } while (s != n);
      }
    }
    board_.play_legal(v, c);
    tracker_.update(board_, v);
    for (int16_t p : tracker_.dirty()) mark_dirty(p);  // includes the new ko point (a captured stone)
    if (old_ko.is_point()) mark(old_ko.index());

    // Chains whose liberties or size changed: their liberties when few (or few before), and
    // the saves through a capture next to them when in atari.
    scratch_.clear();  // chain heads done
    auto touch = [&](Vertex s, bool forced) {
      if (!board_.is_stone(s)) return;
      const int16_t head = static_cast<int16_t>(board_.chain_head(s).index());
      for (int16_t h : scratch_) {
        if (h == head) return;
      }
      scratch_.push_back(head);
      const int libs = board_.liberties(s);
      if (forced || libs <= 4) mark_liberties(s);
      if (forced || libs == 1) mark_atari_neighbours(s);
    };
    for (int16_t p : before_) touch(Vertex(p), true);
    touch(v, false);
    for (Vertex n : board_.neighbours(v)) touch(n, false);
    const std::span<const int16_t> removed = board_.last_removed();
    for (int16_t r : removed) {
      for (Vertex n : board_.neighbours(Vertex(r))) touch(n, false);
    }
    // Nakade: a vital point made by the move is within distance 3 of it (the tracker lists
    // those within 2); a capture can make or unmake vital points within distance 3 of each
    // captured stone.
    for (int i = board_.empty_neighbours(v) > 0 ? 12 : 24; i < 24; ++i) {
      const Vertex x(v.index() + radius3_offsets_[i]);
      int size;
      Color owner;
      if (slot_of_[x.index()] >= 0 && board_.is_empty(x) && nakade_vital(board_, x, tracker_.black_code(x), &size, &owner)) {
        mark(x.index());
      }
    }
    for (int16_t r : removed) {
      for (int i = 12; i < 24; ++i) {
        const int p = r + radius3_offsets_[i];
        if (slot_of_[p] >= 0 && board_.is_empty(Vertex(p))) mark(p);
      }
    }
  }
  second_last_ = last_;
  last_ = v;
  to_move_ = opponent(c);
  synced_ = {false, false};
}

Vertex GammaPolicy::sample(Rng& rng) {
  sync(to_move_);
  const SumTree& t = tree_[ci(to_move_)];
  const int s = t.find(rng.uniform() * t.total());
  return s < 0 ? Vertex::pass() : Vertex(vertex_of_[s]);
}

double GammaPolicy::strength(Vertex v) {
  sync(to_move_);
  const int s = slot_of_[v.index()];
  return s < 0 ? 0.0 : tree_[ci(to_move_)].weight(s);
}

std::optional<double> GammaPolicy::probability(Vertex v) {
  const double w = strength(v);
  const double total = tree_[ci(to_move_)].total();
  return total > 0 ? w / total : 0.0;
}

absl::StatusOr<std::shared_ptr<const GammaModel>> load_gamma_policy_model(std::string_view model,
                                                                         std::string_view policy) {
  const std::string path(model);
  absl::StatusOr<ModelFile> file = read_model_file(path);
  if (!file.ok()) return file.status();
  if (const std::string kind = file->header.value("kind", ""); kind != "gamma") {
    return absl::InvalidArgumentError(path + ": the " + std::string(policy) + " policy needs a gamma model, not '" +
                                      kind + "'" + other_kind_hint(kind, path));
  }
  absl::StatusOr<GammaModel> m = gamma_model_from_file(*file, path);
  if (!m.ok()) return m.status();
  return std::make_shared<const GammaModel>(std::move(*m));
}

absl::StatusOr<int> gamma_head_moves(const PolicyOptions& options) {
  int moves = 0;
  for (const auto& [key, value] : options.settings) {
    if (!key.starts_with("gamma.")) continue;
    if (key != "gamma.moves") {
      return absl::InvalidArgumentError("policy gamma has no setting '" + key + "' (known: gamma.moves)");
    }
    if (!absl::SimpleAtoi(value, &moves) || moves < 0) {
      return absl::InvalidArgumentError("policy setting " + key + "=" + value + ": expected a whole number of moves >= 0");
    }
  }
  return moves;
}

absl::StatusOr<std::unique_ptr<PlayoutPolicy>> make_gamma_policy(std::string_view model, const PolicyOptions& options) {
  const absl::StatusOr<int> moves = gamma_head_moves(options);
  if (!moves.ok()) return moves.status();
  absl::StatusOr<std::shared_ptr<const GammaModel>> m = load_gamma_policy_model(model, "gamma");
  if (!m.ok()) return m.status();
  auto gamma = std::make_unique<GammaPolicy>(std::move(*m));
  if (*moves == 0) return gamma;
  return std::make_unique<SwitchPolicy>(std::move(gamma), std::make_unique<RulesPolicy>(), *moves);
}

}  // namespace hane
