// Isle Arena helper for C++ bots: a small JSON value and parser, and the protocol loop.
// Copy it next to your bot; standard library only (C++17). Protocol: docs/bot-protocol.md.
#pragma once

#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace arena {

// One JSON value. Objects keep their keys sorted (std::map); numbers are doubles.
struct Value {
  enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
  bool boolean = false;
  double number = 0;
  std::string text;
  std::vector<Value> items;
  std::map<std::string, Value> fields;

  bool has(const std::string& key) const { return kind == Object && fields.count(key) > 0; }
  // The field, or a null value when it is missing (so chains like v["a"]["b"] are safe).
  const Value& operator[](const std::string& key) const {
    static const Value none;
    auto it = fields.find(key);
    return kind == Object && it != fields.end() ? it->second : none;
  }
  const Value& operator[](size_t i) const {
    static const Value none;
    return kind == Array && i < items.size() ? items[i] : none;
  }
  size_t size() const { return kind == Array ? items.size() : fields.size(); }
  int as_int(int fallback = 0) const { return kind == Number ? static_cast<int>(number) : fallback; }
  const std::string& str() const { return text; }
};

class Parser {
 public:
  explicit Parser(const std::string& s) : s_(s) {}
  Value parse() {
    Value v = value();
    space();
    if (i_ != s_.size()) fail("trailing characters");
    return v;
  }

 private:
  const std::string& s_;
  size_t i_ = 0;

  [[noreturn]] void fail(const char* what) { throw std::runtime_error(std::string("bad JSON: ") + what); }
  void space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\r' || s_[i_] == '\t')) ++i_;
  }
  bool eat(char c) {
    space();
    if (i_ < s_.size() && s_[i_] == c) { ++i_; return true; }
    return false;
  }
  Value value() {
    space();
    if (i_ >= s_.size()) fail("unexpected end");
    Value v;
    char c = s_[i_];
    if (c == '{') {
      ++i_;
      v.kind = Value::Object;
      if (eat('}')) return v;
      do {
        space();
        std::string key = string();
        if (!eat(':')) fail("expected ':'");
        v.fields[key] = value();
      } while (eat(','));
      if (!eat('}')) fail("expected '}'");
    } else if (c == '[') {
      ++i_;
      v.kind = Value::Array;
      if (eat(']')) return v;
      do v.items.push_back(value()); while (eat(','));
      if (!eat(']')) fail("expected ']'");
    } else if (c == '"') {
      v.kind = Value::String;
      v.text = string();
    } else if (s_.compare(i_, 4, "true") == 0) {
      v.kind = Value::Bool; v.boolean = true; i_ += 4;
    } else if (s_.compare(i_, 5, "false") == 0) {
      v.kind = Value::Bool; i_ += 5;
    } else if (s_.compare(i_, 4, "null") == 0) {
      i_ += 4;
    } else {
      size_t used = 0;
      v.kind = Value::Number;
      v.number = std::stod(s_.substr(i_, 32), &used);
      i_ += used;
    }
    return v;
  }
  std::string string() {
    if (i_ >= s_.size() || s_[i_] != '"') fail("expected a string");
    ++i_;
    std::string out;
    while (i_ < s_.size() && s_[i_] != '"') {
      char c = s_[i_++];
      if (c != '\\') { out += c; continue; }
      if (i_ >= s_.size()) fail("bad escape");
      char e = s_[i_++];
      switch (e) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'u': {  // keep it simple: code points below 0x80 as is, others as '?'
          unsigned code = std::stoul(s_.substr(i_, 4), nullptr, 16);
          i_ += 4;
          out += code < 0x80 ? static_cast<char>(code) : '?';
          break;
        }
        default: out += e;
      }
    }
    if (i_ >= s_.size()) fail("unterminated string");
    ++i_;
    return out;
  }
};

inline Value parse(const std::string& line) { return Parser(line).parse(); }

// A JSON string literal for replies (debug notes).
inline std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') { out += '\\'; out += c; }
    else if (static_cast<unsigned char>(c) < 0x20) out += ' ';
    else out += c;
  }
  return out + "\"";
}

// One reply line on stdout, flushed at once (the arena waits for it).
inline void reply(const std::string& json) {
  std::cout << json << '\n' << std::flush;
}

// The protocol loop: answers "start" with ready (and the bot's name) and every "decide"
// with decide(message); returns at "end". Unknown message types are ignored.
template <typename Decide, typename Start>
void run(const std::string& name, Start on_start, Decide decide) {
  std::ios::sync_with_stdio(false);
  std::string line;
  while (std::getline(std::cin, line)) {
    Value message = parse(line);
    const std::string& type = message["type"].str();
    if (type == "start") {
      on_start(message);
      reply("{\"ready\": true, \"name\": " + quote(name) + "}");
    } else if (type == "decide") {
      reply(decide(message));
    } else if (type == "end") {
      return;
    }
  }
}

}  // namespace arena
