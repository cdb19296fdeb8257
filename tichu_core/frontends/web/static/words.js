// The web table's words that depend on who and what: a verb after "You" or a name, the
// article before a rank, a score's sign, and the order cards are shown in. Plain
// functions on plain values (no page, no state), so that tests/test_web_words.py checks
// them one by one; app.js uses them for every line it builds.
"use strict";

const Words = (() => {
  // The rank a card code stands for in the order players hold cards: the Dog and the
  // Mah Jong lowest, then 2 ... A, then the Phoenix and the Dragon.
  const RANKS = { DOG: 0, MJ: 1, J: 11, Q: 12, K: 13, A: 14, PH: 15, DR: 16 };
  const SUIT_ORDER = { j: 0, s: 1, p: 2, t: 3 };

  // A verb after its subject: "You give", "Ann gives"; `third` when the third person is
  // not the base with an s ("has", "wishes", "makes" is regular).
  function verb(subject, base, third) {
    if (subject === "You") return base;
    if (third) return third;
    return /(s|sh|ch|x|z)$/.test(base) ? base + "es" : base + "s";
  }

  // "You give the Dragon trick away", "Bob gives the Dragon trick away".
  function says(subject, base, rest, third) {
    return `${subject} ${verb(subject, base, third)}${rest ? " " + rest : ""}`;
  }

  // A name inside a sentence or a list: "you" (not "You": "Waiting for you…",
  // "given to you", "Bob, you: pass"), any other name as it is.
  function object(name) {
    return name === "You" ? "you" : name;
  }

  // Names in a sentence: "Ann", "Ann and Bob", "Ann, Bob and Carl".
  function listed(names) {
    return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : names.join("");
  }

  // The article before a rank as it is written and read out: "an A" (an ace), "an 8",
  // "a K", "a 10".
  function article(rank) {
    return /^(A|8)$/.test(String(rank)) ? "an" : "a";
  }

  function withArticle(rank) {
    return `${article(rank)} ${rank}`;
  }

  // A number as a score: the true minus sign (U+2212) before a negative one.
  function number(n) {
    return n < 0 ? `\u2212${-n}` : String(n);
  }

  // A score won or lost in a hand: +75, −25, 0.
  function signed(n) {
    return n > 0 ? `+${n}` : number(n);
  }

  // The order of a card for showing a hand: [rank, suit] (the specials have no suit).
  function cardRank(code) {
    if (code in RANKS) return RANKS[code];
    const rank = code.slice(0, -1);
    return rank in RANKS ? RANKS[rank] : Number(rank);
  }

  function cardSuit(code) {
    const suit = code.slice(-1);
    return code in RANKS ? -1 : SUIT_ORDER[suit] ?? 4;
  }

  // The orders a hand can be shown in, by the name the page stores.
  const ORDERS = {
    high: "high cards first",
    low: "low cards first",
    suit: "by suit",
  };

  // The positions of `codes` in the order `order` ("high", "low", "suit"): the hand is
  // drawn in that order while every card keeps its own position in the hand.
  function arrange(codes, order) {
    const positions = codes.map((_, i) => i);
    const byRank = (a, b) => cardRank(codes[a]) - cardRank(codes[b]) || cardSuit(codes[a]) - cardSuit(codes[b]) || a - b;
    if (order === "low") return positions.sort(byRank);
    if (order === "suit") {
      // The specials at their ends (Dog, Mah Jong first; Phoenix, Dragon last), each
      // suit from low to high in between.
      const group = (code) => (code in RANKS ? (cardRank(code) < 2 ? -1 : 5) : cardSuit(code));
      return positions.sort((a, b) => group(codes[a]) - group(codes[b]) || byRank(a, b));
    }
    return positions.sort((a, b) => byRank(b, a));
  }

  return { verb, says, object, listed, article, withArticle, number, signed, cardRank, arrange, ORDERS };
})();
