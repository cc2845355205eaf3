/**
 * `${{ }}` evaluation for the harness, with GitHub's own expression library
 * (@actions/expressions): the same lexer, parser, evaluator and built-in
 * functions as the Actions language service. The status functions
 * (success(), failure(), always(), cancelled()) are the runner's, so they are
 * supplied here from the job's state.
 */
import { Evaluator, Lexer, Parser, data } from '@actions/expressions';
import type { FunctionDefinition } from '@actions/expressions/funcs/info';
import { truthy } from '@actions/expressions/result';

export const CONTEXT_NAMES = ['github', 'env', 'inputs', 'steps', 'runner', 'job', 'strategy', 'matrix', 'secrets', 'vars'];

export interface JobStatus {
  failed: boolean;
}

function statusFunctions(status: JobStatus): Map<string, FunctionDefinition> {
  const fn = (name: string, value: () => boolean): [string, FunctionDefinition] => [
    name,
    { name, minArgs: 0, maxArgs: 0, call: () => new data.BooleanData(value()) },
  ];
  return new Map([fn('success', () => !status.failed), fn('failure', () => status.failed), fn('always', () => true), fn('cancelled', () => false)]);
}

function toData(contexts: Record<string, unknown>): data.Dictionary {
  return JSON.parse(JSON.stringify(contexts), data.reviver) as data.Dictionary;
}

/** Evaluates one expression (without the ${{ }}). */
export function evaluate(expression: string, contexts: Record<string, unknown>, status: JobStatus): data.ExpressionData {
  const lexed = new Lexer(expression).lex();
  const functions = statusFunctions(status);
  const parser = new Parser(lexed.tokens, CONTEXT_NAMES, [...functions.values()]);
  return new Evaluator(parser.parse(), toData(contexts), functions).evaluate();
}

/** Replaces every ${{ expr }} in a template string with its string value. */
export function evaluateTemplate(template: string, contexts: Record<string, unknown>, status: JobStatus): string {
  return template.replace(/\$\{\{([\s\S]*?)\}\}/g, (_m, expr: string) => evaluate(expr.trim(), contexts, status).coerceString());
}

/** An `if:` condition: a bare expression or one wrapped in ${{ }}; status-free ones get success() && (…). */
export function evaluateCondition(condition: string | undefined, contexts: Record<string, unknown>, status: JobStatus): boolean {
  const raw = (condition ?? '').trim();
  const expr = raw.startsWith('${{') && raw.endsWith('}}') ? raw.slice(3, -2).trim() : raw;
  if (expr === '') return !status.failed;
  const usesStatus = /\b(success|failure|always|cancelled)\s*\(/.test(expr);
  const full = usesStatus ? expr : `success() && (${expr})`;
  return truthy(evaluate(full, contexts, status));
}
