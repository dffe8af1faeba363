#include "vcd_writer.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <functional>
#include <memory>

namespace l3vp::vcd {

namespace {

constexpr size_t kOutChunk = 1 << 20;

std::string id_code(size_t i) {
  std::string s;
  do {
    s += char('!' + i % 94);
    i /= 94;
  } while (i);
  return s;
}

struct Scope {
  std::string name;
  std::vector<std::unique_ptr<Scope>> kids;
  std::vector<size_t> vars;
  Scope* kid(const std::string& n) {
    for (auto& k : kids)
      if (k->name == n) return k.get();
    kids.push_back(std::make_unique<Scope>());
    kids.back()->name = n;
    return kids.back().get();
  }
};

}  // namespace

Writer::~Writer() {
  if (f_) std::fclose(f_);
}

Writer::Sig Writer::add(const std::string& scope, const std::string& name, unsigned width, std::string init) {
  if (f_) throw std::logic_error("vcd::Writer::add after open");
  if (width > 64) throw std::invalid_argument("vcd: width " + std::to_string(width) + " > 64");
  Signal s{scope, name, width, id_code(sigs_.size()), 0};
  if (width == 0) s.cur = intern(init);
  sigs_.push_back(std::move(s));
  return Sig(sigs_.size() - 1);
}

uint64_t Writer::intern(std::string_view v) {
  std::string s(v);
  for (char& c : s)
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') c = '_';
  if (s.empty()) s = "-";
  auto it = str_index_.find(s);
  if (it != str_index_.end()) return it->second;
  strs_.push_back(s);
  return str_index_[s] = strs_.size() - 1;
}

void Writer::out(std::string_view s) {
  if (!cut_) obuf_.append(s);
}

void Writer::drain() {
  if (!f_ || obuf_.empty()) return;
  if (err_.empty()) {
    if (std::fwrite(obuf_.data(), 1, obuf_.size(), f_) != obuf_.size())
      err_ = std::strerror(errno ? errno : EIO);
  }
  written_ += obuf_.size();
  obuf_.clear();
  group_start_ = 0;
}

std::string Writer::truncation_note(uint64_t cap, uint64_t t) {
  return "$comment\n  truncated at --vcd-max-size (" + std::to_string(cap) + " bytes): nothing from #" +
         std::to_string(t) + " on is written; the run went on to its end\n$end\n";
}

// Called when a time group is complete (the next one starts, or the file
// closes): the output is drained only here, so a group that does not fit
// is still in the buffer and can be taken back whole.
void Writer::end_group() {
  if (cut_) return;
  if (max_bytes_ && time_open_ && written_ + obuf_.size() + note_room_ > max_bytes_) {
    obuf_.resize(group_start_);
    obuf_ += truncation_note(max_bytes_, last_t_);
    cut_ = true;
    cut_at_ = last_t_;
    return;
  }
  if (obuf_.size() >= kOutChunk) drain();
}

void Writer::open(const std::string& path, uint64_t timescale_ps, const std::vector<std::string>& comments) {
  const char* unit = timescale_ps == 1 ? "1ps" : timescale_ps == 1000 ? "1ns" : nullptr;
  if (!unit) throw std::invalid_argument("vcd: timescale must be 1 ps or 1 ns");
  note_room_ = truncation_note(max_bytes_, kForever).size();  // the longest note
  f_ = std::fopen(path.c_str(), "wb");
  if (!f_) throw std::runtime_error("cannot create '" + path + "': " + std::strerror(errno));
  std::string h;
  for (const std::string& c : comments) h += "$comment\n  " + c + "\n$end\n";
  h += std::string("$timescale ") + unit + " $end\n";
  Scope root;
  for (size_t i = 0; i < sigs_.size(); ++i) {
    Scope* s = &root;
    const std::string& sc = sigs_[i].scope;
    size_t a = 0;
    while (a <= sc.size()) {
      size_t b = sc.find('.', a);
      if (b == std::string::npos) b = sc.size();
      if (b > a) s = s->kid(sc.substr(a, b - a));
      a = b + 1;
    }
    s->vars.push_back(i);
  }
  std::function<void(const Scope&)> walk = [&](const Scope& s) {
    for (size_t i : s.vars) {
      const Signal& v = sigs_[i];
      if (v.width == 0)
        h += "$var string 1 " + v.code + " " + v.name + " $end\n";
      else if (v.width == 1)
        h += "$var wire 1 " + v.code + " " + v.name + " $end\n";
      else
        h += "$var reg " + std::to_string(v.width) + " " + v.code + " " + v.name + " $end\n";
    }
    for (const auto& k : s.kids) {
      h += "$scope module " + k->name + " $end\n";
      walk(*k);
      h += "$upscope $end\n";
    }
  };
  walk(root);
  h += "$enddefinitions $end\n";
  out(h);
}

void Writer::emit_time(uint64_t t) {
  if (cut_ || (time_open_ && t == last_t_)) return;
  end_group();
  if (cut_) return;
  group_start_ = obuf_.size();
  char b[24];
  b[0] = '#';
  char* e = std::to_chars(b + 1, b + sizeof b - 1, t).ptr;
  *e++ = '\n';
  out(std::string_view(b, size_t(e - b)));
  time_open_ = true;
  last_t_ = t;
}

void Writer::emit_value(const Signal& s, uint64_t v) {
  char b[96];
  char* p = b;
  if (s.width == 0) {
    out("s");
    out(strs_[v]);
    *p++ = ' ';
  } else if (s.width == 1) {
    *p++ = (v & 1) ? '1' : '0';
  } else {
    *p++ = 'b';
    for (int k = v ? 63 - __builtin_clzll(v) : 0; k >= 0; --k) *p++ = char('0' + ((v >> k) & 1));
    *p++ = ' ';
  }
  std::memcpy(p, s.code.data(), s.code.size());
  p += s.code.size();
  *p++ = '\n';
  out(std::string_view(b, size_t(p - b)));
}

void Writer::dump_all(uint64_t t) {
  emit_time(t);
  out("$dumpvars\n");
  for (const Signal& s : sigs_) emit_value(s, s.cur);
  out("$end\n");
  dumped_ = true;
}

void Writer::apply_group(std::vector<Change>& g) {
  // One time: by signal (declaration order), the last change of a signal wins.
  // Groups are small (a few changes): a stable insertion sort, no allocation.
  for (size_t i = 1; i < g.size(); ++i)
    for (size_t j = i; j > 0 && g[j].sig < g[j - 1].sig; --j) std::swap(g[j], g[j - 1]);
  const uint64_t t = g.front().t;
  for (size_t i = 0; i < g.size();) {
    const Sig sig = g[i].sig;
    Signal& s = sigs_[sig];
    uint64_t v = s.cur;
    for (; i < g.size() && g[i].sig == sig; ++i) v = g[i].op == Op::Set ? g[i].v : v + g[i].v;
    if (s.width > 0 && s.width < 64) v &= (uint64_t(1) << s.width) - 1;
    if (t < win_start_ || t > win_end_) {
      if (t < win_start_) s.cur = v;
      continue;
    }
    if (!dumped_) dump_all(win_start_);
    if (v == s.cur) continue;
    s.cur = v;
    emit_time(t);
    emit_value(s, v);
  }
}

void Writer::flush(uint64_t h) {
  if (!f_) return;
  if (flushed_any_)
    for (Change& c : buf_)
      if (c.t <= horizon_) {  // broke the promise: place it at the earliest open time
        ++late_;
        c.t = horizon_ + 1;
      }
  std::stable_sort(buf_.begin(), buf_.end(), [](const Change& a, const Change& b) { return a.t < b.t; });
  // Merge the general buffer (source 0) and the streams, time by time.
  const size_t k = streams_.size() + 1;
  std::vector<std::vector<Change>*> src(k);
  std::vector<size_t> pos(k, 0), lim(k);
  src[0] = &buf_;
  for (size_t i = 1; i < k; ++i) src[i] = &streams_[i - 1];
  for (size_t i = 0; i < k; ++i)
    lim[i] = std::partition_point(src[i]->begin(), src[i]->end(), [h](const Change& c) { return c.t <= h; }) -
             src[i]->begin();
  for (;;) {
    uint64_t t = kForever;
    for (size_t i = 0; i < k; ++i)
      if (pos[i] < lim[i]) t = std::min(t, (*src[i])[pos[i]].t);
    if (t == kForever) break;
    group_.clear();
    for (size_t i = 0; i < k; ++i)
      while (pos[i] < lim[i] && (*src[i])[pos[i]].t == t) group_.push_back((*src[i])[pos[i]++]);
    apply_group(group_);
  }
  for (size_t i = 0; i < k; ++i) src[i]->erase(src[i]->begin(), src[i]->begin() + lim[i]);
  if (!flushed_any_ || h > horizon_) horizon_ = h;
  flushed_any_ = true;
  stream_floor_ = horizon_ + 1;
}

std::string Writer::close(uint64_t end) {
  if (!f_) return err_;
  uint64_t last = 0;
  for (const Change& c : buf_) last = std::max(last, c.t);
  for (const auto& q : streams_)
    if (!q.empty()) last = std::max(last, q.back().t);
  flush(std::max(last, horizon_));
  const uint64_t stop = std::min(end, win_end_);
  if (!dumped_ && stop >= win_start_) dump_all(win_start_);
  if (dumped_ && (!time_open_ || stop > last_t_)) emit_time(stop);
  end_group();
  drain();
  if (std::fclose(f_) != 0 && err_.empty()) err_ = std::strerror(errno ? errno : EIO);
  f_ = nullptr;
  return err_;
}

}  // namespace l3vp::vcd
