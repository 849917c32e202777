#!/usr/bin/env python3
"""Scores conversation sets through the real command line, the way a held-out evaluation does.

For each conversation: `bin/weft concierge seed` (the demo shop afresh), then one
`bin/weft concierge ask --session ID --json MESSAGE` per turn, then the end state read from the
concierge's tables in $WEFT_HOME/weft.db, compared with what the conversation expects (the same
rules as ConversationSuite.compare: what must have changed, and nothing else) and with what the
replies must say and which goal they are on.

    python3 weft-concierge/src/test/python/score_blind.py [-v] [-j N] SET.json [SET.json ...]

Prints one line per failing conversation (with -v, every problem) and the share that end right,
per language and in all. Uses a WEFT_HOME of its own per worker (a temporary directory).
"""
import argparse, json, os, queue, subprocess, sys, tempfile, sqlite3
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))
WEFT = os.path.join(ROOT, "bin", "weft")


def weft(home, *args):
    env = dict(os.environ, WEFT_HOME=home, WEFT_USER="blind")
    env.pop("WEFT_MODEL", None)
    return subprocess.run([WEFT, "concierge", *args], env=env, capture_output=True, text=True, timeout=300)


def snapshot(home):
    db = sqlite3.connect(os.path.join(home, "weft.db"))
    q = lambda sql: db.execute(sql).fetchall()
    orders = {}
    for oid, cid, status, address in q("select id, customer_id, status, address from concierge_orders"):
        orders[oid] = {"customer": cid, "status": status, "address": address, "items": []}
    for oid, _, vid in q("select order_id, position, variant_id from concierge_order_items order by order_id, position"):
        orders[oid]["items"].append(vid)
    snap = {
        "orders": orders,
        "addresses": dict(q("select id, address from concierge_customers")),
        "returns": [{"order": o, "items": json.loads(i), "refundTo": r}
                    for o, i, r in q("select order_id, items, refund_to from concierge_returns order by created_at, rowid")],
        "exchanges": [{"order": o, "item": p, "from": f, "to": t}
                      for o, p, f, t in q("select order_id, item_position, from_variant, to_variant from concierge_exchanges order by created_at, rowid")],
        "refunds": [{"order": o, "method": m, "kind": k}
                    for o, m, k in q("select order_id, method, kind from concierge_refunds order by created_at, rowid")],
        "tickets": [{"kind": k, "customer": c or "", "order": o or ""}
                    for k, c, o in q("select kind, customer_id, order_id from concierge_tickets order by created_at, rowid")],
    }
    db.close()
    return snap


def same_items(what, made, wanted, keys):
    problems, left = [], list(made)
    for want in wanted:
        match = next((m for m in left if all(m.get(k) == want[k] for k in keys if k in want)), None)
        if match is None:
            problems.append(f"no {what} like {json.dumps(want, ensure_ascii=False)} (made: {json.dumps(made, ensure_ascii=False)})")
        else:
            left.remove(match)
    problems += [f"an unexpected {what}: {json.dumps(x, ensure_ascii=False)}" for x in left]
    return problems


def compare(before, after, expect):
    problems = []
    for oid, now in after["orders"].items():
        was = before["orders"].get(oid)
        if was is None:
            continue
        wanted = expect.get("orders", {}).get(oid, {})
        for field in ("status", "address", "items"):
            value = wanted.get(field, was[field])
            if value != now[field]:
                problems.append(f"order {oid}: {field} is {now[field]}, expected {value}")
    created = [dict(o, id=oid) for oid, o in after["orders"].items() if oid not in before["orders"]]
    problems += same_items("new order", created, expect.get("newOrders", []), ["customer", "items", "status"])
    for cid, address in after["addresses"].items():
        value = expect.get("addresses", {}).get(cid, before["addresses"].get(cid))
        if value != address:
            problems.append(f"customer {cid}: address is {address}, expected {value}")
    for name in ("returns", "exchanges", "refunds", "tickets"):
        made = after[name][len(before[name]):]
        keys = []
        for x in expect.get(name, []):
            keys += [k for k in x if k not in keys]
        problems += same_items(name[:-1], made, expect.get(name, []), keys)
    return problems


def run(conversation, home):
    problems, said = [], []
    seeded = weft(home, "seed")
    if seeded.returncode != 0:
        return [f"seed failed: {seeded.stderr.strip()}"]
    before = snapshot(home)
    session = "blind-" + conversation["id"]
    for index, turn in enumerate(conversation["turns"], 1):
        text = turn["say"]
        out = weft(home, "ask", "--session", session, "--json", text)
        try:
            reply = json.loads(out.stdout)
        except ValueError:
            problems.append(f"turn {index} ({text}): exit {out.returncode}, no JSON: {out.stdout.strip()} {out.stderr.strip()}")
            break
        if "error" in reply:
            problems.append(f"turn {index} ({text}) failed: {reply['error']}")
            break
        said.append(reply["reply"])
        if "goal" in turn and turn["goal"] != reply["goal"]:
            problems.append(f"turn {index} ({text}): goal {reply['goal']}, expected {turn['goal']}; reply: {reply['reply']}")
        for words in turn.get("replyHas", []):
            if words.lower() not in reply["reply"].lower():
                problems.append(f"turn {index} ({text}): the reply does not say \"{words}\": {reply['reply']}")
    everything = "\n".join(said).lower()
    problems += [f"nothing said \"{w}\"" for w in conversation["expect"].get("said", []) if w.lower() not in everything]
    problems += compare(before, snapshot(home), conversation["expect"])
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sets", nargs="+")
    parser.add_argument("-j", type=int, default=1, help="conversations run at once (each worker has its own WEFT_HOME)")
    parser.add_argument("-v", action="store_true", help="print every problem of a failing conversation")
    args = parser.parse_args()
    homes = queue.Queue()
    for _ in range(args.j):
        homes.put(tempfile.mkdtemp(prefix="weft-blind-"))

    def score(conversation):
        home = homes.get()
        try:
            return conversation, run(conversation, home)
        finally:
            homes.put(home)
    for path in args.sets:
        conversations = json.load(open(path, encoding="utf-8"))
        with ThreadPoolExecutor(args.j) as pool:
            outcomes = list(pool.map(score, conversations))
        tally = {}
        for conversation, problems in outcomes:
            lang = conversation["language"]
            passed, total = tally.get(lang, (0, 0))
            tally[lang] = (passed + (not problems), total + 1)
            if problems:
                print(f"FAIL {conversation['id']}: " + (" | ".join(problems) if args.v else problems[0]))
        passed = sum(p for p, _ in tally.values())
        total = sum(t for _, t in tally.values())
        per = ", ".join(f"{lang} {p}/{t} ({100 * p / t:.0f} %)" for lang, (p, t) in sorted(tally.items()))
        print(f"{os.path.basename(path)}: {passed}/{total} ({100 * passed / total:.0f} %) end right — {per}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
