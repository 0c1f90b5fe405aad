/**
 * The standard lib when no lib folder is at hand (the analysis bundle ships without TypeScript's
 * .d.ts files): the global types the checker requires, the containers main's signature uses
 * (Array, Promise) and the utility types people write in signatures. Method lists are short on
 * purpose: they only matter for return types inferred from the body.
 */
export const MINIMAL_LIB = `
interface Object { toString(): string; }
interface Function { apply(this: Function, thisArg: any, argArray?: any): any; call(this: Function, thisArg: any, ...argArray: any[]): any; }
interface CallableFunction extends Function {}
interface NewableFunction extends Function {}
interface IArguments { [index: number]: any; length: number; }
interface Boolean {}
interface Number { toFixed(fractionDigits?: number): string; toString(radix?: number): string; }
interface String {
  readonly length: number;
  toUpperCase(): string; toLowerCase(): string; trim(): string;
  split(separator: string | RegExp, limit?: number): string[];
  includes(searchString: string, position?: number): boolean;
  startsWith(searchString: string, position?: number): boolean;
  slice(start?: number, end?: number): string;
  replace(searchValue: string | RegExp, replaceValue: string): string;
  readonly [index: number]: string;
}
interface RegExp { test(string: string): boolean; }
interface Symbol {}
interface TemplateStringsArray extends ReadonlyArray<string> { readonly raw: readonly string[]; }
interface ReadonlyArray<T> {
  readonly length: number;
  readonly [n: number]: T;
  map<U>(callbackfn: (value: T, index: number, array: readonly T[]) => U): U[];
  filter(predicate: (value: T, index: number, array: readonly T[]) => unknown): T[];
  forEach(callbackfn: (value: T, index: number, array: readonly T[]) => void): void;
  reduce<U>(callbackfn: (previousValue: U, currentValue: T, currentIndex: number, array: readonly T[]) => U, initialValue: U): U;
  includes(searchElement: T, fromIndex?: number): boolean;
  join(separator?: string): string;
  slice(start?: number, end?: number): T[];
  some(predicate: (value: T, index: number, array: readonly T[]) => unknown): boolean;
  every(predicate: (value: T, index: number, array: readonly T[]) => unknown): boolean;
  find(predicate: (value: T, index: number, obj: readonly T[]) => unknown): T | undefined;
}
interface Array<T> {
  length: number;
  [n: number]: T;
  push(...items: T[]): number;
  map<U>(callbackfn: (value: T, index: number, array: T[]) => U): U[];
  filter(predicate: (value: T, index: number, array: T[]) => unknown): T[];
  forEach(callbackfn: (value: T, index: number, array: T[]) => void): void;
  reduce<U>(callbackfn: (previousValue: U, currentValue: T, currentIndex: number, array: T[]) => U, initialValue: U): U;
  includes(searchElement: T, fromIndex?: number): boolean;
  join(separator?: string): string;
  slice(start?: number, end?: number): T[];
  some(predicate: (value: T, index: number, array: T[]) => unknown): boolean;
  every(predicate: (value: T, index: number, array: T[]) => unknown): boolean;
  find(predicate: (value: T, index: number, obj: T[]) => unknown): T | undefined;
}
interface ArrayConstructor { isArray(arg: any): arg is any[]; }
declare var Array: ArrayConstructor;
interface Date { toISOString(): string; getTime(): number; }
interface DateConstructor { new (value?: number | string): Date; now(): number; }
declare var Date: DateConstructor;
interface PromiseLike<T> {
  then<TResult1 = T, TResult2 = never>(onfulfilled?: ((value: T) => TResult1 | PromiseLike<TResult1>) | undefined | null, onrejected?: ((reason: any) => TResult2 | PromiseLike<TResult2>) | undefined | null): PromiseLike<TResult1 | TResult2>;
}
interface Promise<T> {
  then<TResult1 = T, TResult2 = never>(onfulfilled?: ((value: T) => TResult1 | PromiseLike<TResult1>) | undefined | null, onrejected?: ((reason: any) => TResult2 | PromiseLike<TResult2>) | undefined | null): Promise<TResult1 | TResult2>;
  catch<TResult = never>(onrejected?: ((reason: any) => TResult | PromiseLike<TResult>) | undefined | null): Promise<T | TResult>;
}
interface PromiseConstructor { resolve<T>(value: T): Promise<Awaited<T>>; all<T extends readonly unknown[] | []>(values: T): Promise<{ -readonly [P in keyof T]: Awaited<T[P]> }>; }
declare var Promise: PromiseConstructor;
type Awaited<T> = T extends null | undefined ? T : T extends object & { then(onfulfilled: infer F, ...args: infer _): any } ? F extends (value: infer V, ...args: infer _) => any ? Awaited<V> : never : T;
type Partial<T> = { [P in keyof T]?: T[P] };
type Required<T> = { [P in keyof T]-?: T[P] };
type Readonly<T> = { readonly [P in keyof T]: T[P] };
type Pick<T, K extends keyof T> = { [P in K]: T[P] };
type Record<K extends keyof any, T> = { [P in K]: T };
type Exclude<T, U> = T extends U ? never : T;
type Extract<T, U> = T extends U ? T : never;
type Omit<T, K extends keyof any> = Pick<T, Exclude<keyof T, K>>;
type NonNullable<T> = T & {};
type Parameters<T extends (...args: any) => any> = T extends (...args: infer P) => any ? P : never;
type ReturnType<T extends (...args: any) => any> = T extends (...args: any) => infer R ? R : any;
interface JSON { parse(text: string): any; stringify(value: any): string; }
declare var JSON: JSON;
interface Console { log(...data: any[]): void; warn(...data: any[]): void; error(...data: any[]): void; info(...data: any[]): void; }
declare var console: Console;
`;
