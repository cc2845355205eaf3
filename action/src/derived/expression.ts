/**
 * The arithmetic of derived metrics ("10000 / time", "requests / time"):
 * numbers, metric names, + − × ÷ (ASCII or typographic), unary minus and
 * parentheses. A hand-written recursive-descent parser into a small tree that
 * is then walked: expressions come from a config file, so they are never
 * handed to eval or Function.
 */

export type Expr =
  | { kind: 'number'; value: number }
  | { kind: 'metric'; name: string }
  | { kind: 'negate'; arg: Expr }
  | { kind: 'binary'; op: '+' | '-' | '*' | '/'; left: Expr; right: Expr };

/** Why an expression could not be parsed, with the 0-based column; the caller names the file and key. */
export class ExpressionError extends Error {
  override readonly name = 'ExpressionError';
  constructor(
    readonly detail: string,
    readonly column: number,
  ) {
    super(detail);
  }
}

type Token =
  | { type: 'number'; value: number; at: number }
  | { type: 'name'; value: string; at: number }
  | { type: 'op'; value: string; at: number }
  | { type: 'end'; at: number };

const OPERATOR: Record<string, string> = { '+': '+', '-': '-', '−': '-', '*': '*', '×': '*', '·': '*', '/': '/', '÷': '/', '(': '(', ')': ')' };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const number = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(text.slice(i));
    if (number) {
      tokens.push({ type: 'number', value: Number(number[0]), at: i });
      i += number[0].length;
      continue;
    }
    // Metric names as the vocabulary spells them: latency_p99, syscalls.read, time.
    const name = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(text.slice(i));
    if (name) {
      tokens.push({ type: 'name', value: name[0], at: i });
      i += name[0].length;
      continue;
    }
    const op = OPERATOR[c];
    if (op === undefined) throw new ExpressionError(`unexpected character "${c}"; expected numbers, metric names, + - * / and parentheses`, i);
    tokens.push({ type: 'op', value: op, at: i });
    i++;
  }
  tokens.push({ type: 'end', at: text.length });
  return tokens;
}

/** Parses an expression; throws ExpressionError saying what was expected where. */
export function parseExpression(text: string): Expr {
  const tokens = tokenize(text);
  let pos = 0;
  const peek = (): Token => tokens[pos]!;
  const isOp = (t: Token, ...ops: string[]): boolean => t.type === 'op' && ops.includes(t.value);

  const primary = (): Expr => {
    const t = peek();
    if (t.type === 'number') {
      pos++;
      return { kind: 'number', value: t.value };
    }
    if (t.type === 'name') {
      pos++;
      return { kind: 'metric', name: t.value };
    }
    if (isOp(t, '(')) {
      pos++;
      const inner = sum();
      if (!isOp(peek(), ')')) throw new ExpressionError(`expected ")" to close the "(" at column ${t.at + 1}`, peek().at);
      pos++;
      return inner;
    }
    const found = t.type === 'end' ? 'the end' : `"${String(t.value)}"`;
    throw new ExpressionError(`expected a number, a metric name or "(", found ${found}`, t.at);
  };
  const unary = (): Expr => {
    if (isOp(peek(), '-', '+')) {
      const op = peek().type === 'op' ? (peek() as { value: string }).value : '+';
      pos++;
      const arg = unary();
      return op === '-' ? { kind: 'negate', arg } : arg;
    }
    return primary();
  };
  const product = (): Expr => {
    let left = unary();
    while (isOp(peek(), '*', '/')) {
      const op = (tokens[pos++] as { value: '*' | '/' }).value;
      left = { kind: 'binary', op, left, right: unary() };
    }
    return left;
  };
  const sum = (): Expr => {
    let left = product();
    while (isOp(peek(), '+', '-')) {
      const op = (tokens[pos++] as { value: '+' | '-' }).value;
      left = { kind: 'binary', op, left, right: product() };
    }
    return left;
  };

  const tree = sum();
  const rest = peek();
  if (rest.type !== 'end') throw new ExpressionError(`expected an operator or the end, found "${String(rest.value)}"`, rest.at);
  return tree;
}

/** The metric names an expression reads, each once, in order of appearance. */
export function metricsOf(expr: Expr): string[] {
  const names: string[] = [];
  const walk = (e: Expr): void => {
    if (e.kind === 'metric') {
      if (!names.includes(e.name)) names.push(e.name);
    } else if (e.kind === 'negate') walk(e.arg);
    else if (e.kind === 'binary') {
      walk(e.left);
      walk(e.right);
    }
  };
  walk(expr);
  return names;
}

/** Evaluates with metric values from `value`; division by zero gives ±Infinity or NaN, which callers reject. */
export function evaluate(expr: Expr, value: (metric: string) => number): number {
  switch (expr.kind) {
    case 'number':
      return expr.value;
    case 'metric':
      return value(expr.name);
    case 'negate':
      return -evaluate(expr.arg, value);
    case 'binary': {
      const a = evaluate(expr.left, value);
      const b = evaluate(expr.right, value);
      return expr.op === '+' ? a + b : expr.op === '-' ? a - b : expr.op === '*' ? a * b : a / b;
    }
  }
}
