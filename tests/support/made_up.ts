/**
 * A made-up word drawn from `n` and `salt`: eight letters, far apart from any other `n`'s, so
 * questions made of them are never grouped together (lib/gaps/group.ts repairs one typo).
 */
export function madeUpWord(n: number, salt: string): string {
  let x = n * 7919 + salt.charCodeAt(0) * 104729 + 1;
  let word = "";
  for (let i = 0; i < 8; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    word += "bcdfghjklmnpqrstvwxz"[x % 20] + (i % 2 ? "aeiou"[(x >> 8) % 5] : "");
  }
  return word;
}
