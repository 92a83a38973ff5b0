import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { ABSENT, ByteKeyTable } from "../../src/data/byte-key-table.js";

describe("ByteKeyTable", () => {
  test("finds every key added, by content, wherever it occurs in the buffer", () => {
    const bytes = Buffer.from("青绿,乌黑,青绿,a,,a");
    const t = new ByteKeyTable(bytes);
    t.add(0, 6, 0); // 青绿
    t.add(7, 13, 1); // 乌黑
    t.add(21, 22, -1); // a
    assert.equal(t.get(14, 20), 0);
    assert.equal(t.get(7, 13), 1);
    assert.equal(t.get(24, 25), -1);
    assert.equal(t.get(23, 23), ABSENT); // the empty key was never added
    assert.equal(t.get(0, 3), ABSENT); // a prefix is another key
  });

  test("behaves like a Map over many keys (growth and collisions)", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 4 }), { maxLength: 400 }), (cells) => {
        const bytes = Buffer.from(cells.join("\u0000"));
        const ranges: [number, number][] = [];
        let p = 0;
        for (const c of cells) {
          const n = Buffer.byteLength(c);
          ranges.push([p, p + n]);
          p += n + 1;
        }
        const t = new ByteKeyTable(bytes);
        const m = new Map<string, number>();
        cells.forEach((c, i) => {
          const [s, e] = ranges[i];
          const got = t.get(s, e);
          assert.equal(got, m.get(c) ?? ABSENT);
          if (got === ABSENT) {
            t.add(s, e, i);
            m.set(c, i);
          }
        });
        assert.equal(t.size, m.size);
      }),
      { numRuns: 200 },
    );
  });
});
