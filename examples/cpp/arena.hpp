// Isle Arena helper for C++ bots: a small JSON value and parser, the protocol loop, and the
// game's data (cards, boats, shapes: arena::GameData::load(start)).
// Copy it next to your bot; standard library only (C++17). Protocol: docs/bot-protocol.md.
#pragma once

#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <set>
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

// --- The game's data ----------------------------------------------------------------------
// start["game_data"] (docs/bot-protocol.md, "The game's data") in handy types: every card by
// id, every boat by the name observations give, every shape by the key tiles carry.

struct Cell {
  int x = 0, y = 0;
  bool operator<(const Cell& o) const { return y != o.y ? y < o.y : x < o.x; }
  bool operator==(const Cell& o) const { return x == o.x && y == o.y; }
};

inline Cell cell_of(const Value& v) { return Cell{v[0].as_int(), v[1].as_int()}; }

inline std::vector<Cell> cells_of(const Value& v) {
  std::vector<Cell> out;
  for (const Value& c : v.items) out.push_back(cell_of(c));
  return out;
}

struct Room {
  std::string key, name;
  std::vector<Cell> cells;
};

struct Boat {
  std::string name;
  std::set<Cell> cells, rats, edge;
  std::map<std::string, Cell> maps;  // treasure maps: colour -> cell
  std::vector<Room> rooms;
  bool contains(const Cell& c) const { return cells.count(c) > 0; }
};

struct Shape {
  std::string key, kind;
  int size = 0;
  std::vector<std::vector<Cell>> orientations;  // every rotation and reflection, from (0, 0)
};

struct Card {
  int id = 0;
  std::string family, label, effect, colour;
  int cost = -1;       // -1: never bought
  int speed = -1;      // -1: not a rescue (or solo basket) card
  double baskets = 0;  // rescue cards: 1 full, 0.5 half, 0 none
  Value rules;         // the machine-readable rules (scoring, params, options, actions...)
};

struct GameData {
  std::string version, mode;
  std::map<int, Card> cards;
  std::map<std::string, Boat> boats;
  std::map<std::string, Shape> shapes;
  Value island;  // the Duel's island (null in the other modes)

  static GameData load(const Value& start) {
    const Value& d = start["game_data"];
    GameData g;
    g.version = d["version"].str();
    g.mode = d["mode"].str();
    for (const Value& c : d["cards"].items) {
      Card card;
      card.id = c["id"].as_int();
      card.family = c["family"].str();
      card.label = c["label"].str();
      card.effect = c["effect"].str();
      card.colour = c["colour"].str();
      card.cost = c["cost"].as_int(-1);
      card.speed = c["speed"].as_int(-1);
      card.baskets = c["baskets"].kind == Value::Number ? c["baskets"].number : 0;
      card.rules = c["rules"];
      g.cards[card.id] = card;
    }
    for (const auto& [name, b] : d["boats"].fields) {
      Boat boat;
      boat.name = name;
      for (const Cell& c : cells_of(b["cells"])) boat.cells.insert(c);
      for (const Cell& c : cells_of(b["rats"])) boat.rats.insert(c);
      for (const Cell& c : cells_of(b["edge"])) boat.edge.insert(c);
      for (const auto& [colour, c] : b["maps"].fields) boat.maps[colour] = cell_of(c);
      for (const Value& r : b["rooms"].items) boat.rooms.push_back({r["key"].str(), r["name"].str(), cells_of(r["cells"])});
      g.boats[name] = boat;
    }
    for (const auto& [key, s] : d["shapes"].fields) {
      Shape shape;
      shape.key = key;
      shape.kind = s["kind"].str();
      shape.size = s["size"].as_int();
      for (const Value& o : s["orientations"].items) shape.orientations.push_back(cells_of(o));
      g.shapes[key] = shape;
    }
    g.island = d["island"];
    return g;
  }

  const Card* card(int id) const {
    auto it = cards.find(id);
    return it == cards.end() ? nullptr : &it->second;
  }

  // The cells of every place a tile of `shape` fits on `boat`: inside it, over no occupied
  // cell and (when `touching` and the boat is not empty) next to one. The arena's "legal"
  // list is the authority; this is for planning ahead.
  std::vector<std::vector<Cell>> placements(const std::string& shape, const std::string& boat,
                                            const std::set<Cell>& occupied,
                                            bool touching = true) const {
    std::vector<std::vector<Cell>> out;
    auto s = shapes.find(shape);
    auto b = boats.find(boat);
    if (s == shapes.end() || b == boats.end()) return out;
    for (const auto& o : s->second.orientations) {
      for (const Cell& at : b->second.cells) {  // the orientation's first cell on each cell
        std::vector<Cell> placed;
        bool fits = true, near = !touching || occupied.empty();
        for (const Cell& c : o) {
          Cell p{at.x - o[0].x + c.x, at.y - o[0].y + c.y};
          if (!b->second.contains(p) || occupied.count(p)) { fits = false; break; }
          for (const Cell& n : {Cell{p.x + 1, p.y}, Cell{p.x - 1, p.y}, Cell{p.x, p.y + 1}, Cell{p.x, p.y - 1}})
            if (occupied.count(n)) near = true;
          placed.push_back(p);
        }
        if (fits && near) out.push_back(placed);
      }
    }
    return out;
  }
};

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

// The protocol loop: answers "start" with ready (the bot's name, and protocol 2: in every
// mode the observation has "seat", "you" (your own player) and "decision" (what is asked))
// and every "decide" with decide(message); returns at "end". Unknown message types are
// ignored.
template <typename Decide, typename Start>
void run(const std::string& name, Start on_start, Decide decide) {
  std::ios::sync_with_stdio(false);
  std::string line;
  while (std::getline(std::cin, line)) {
    Value message = parse(line);
    const std::string& type = message["type"].str();
    if (type == "start") {
      on_start(message);
      reply("{\"ready\": true, \"protocol\": 2, \"name\": " + quote(name) + "}");
    } else if (type == "decide") {
      reply(decide(message));
    } else if (type == "end") {
      return;
    }
  }
}

}  // namespace arena
