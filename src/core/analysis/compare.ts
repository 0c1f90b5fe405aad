import type ts from 'typescript';
import { type ActionMetadata } from '../schema/metadata';
import { count } from '../text/count';
import { generateTypes } from '../typegen/generateTypes';
import { locateMain, type LocatedMain, parameterList, resultRange } from './findMain';
import { createActionProgram } from './program';
import { rangeOf, rangeOfNode } from './range';
import { awaitedReturnType, formOfTsType, parameterType } from './tsTypeForm';
import {
  choiceDifference,
  describeForm,
  formOfParameterType,
  formOfResultType,
  parameterAccepts,
  propertyDifference,
  resultFits,
  type TypeForm,
} from './typeForms';
import { type CompareOptions, type Mismatch } from './types';

/**
 * Where main.ts disagrees with action.yaml, each mismatch pointing at the exact parameter, name or
 * return type. An empty list means the platform can call main as the metadata describes it.
 */
export function compareWithMetadata(source: string, metadata: ActionMetadata, options: CompareOptions = {}): Mismatch[] {
  const { checker, main: file } = createActionProgram(source, options.generatedSource ?? generateTypes(metadata), options.fileName);
  return compareIn(file, checker, metadata);
}

/** compareWithMetadata on a main file already in a program (alone, or with other actions' files: `checkMany`). */
export function compareIn(file: ts.SourceFile, checker: ts.TypeChecker, metadata: ActionMetadata): Mismatch[] {
  const main = locateMain(file);
  if (!main) {
    return [
      {
        kind: 'missing-main',
        message: 'This file defines no function main; the platform calls main with the parameters of the metadata.',
        range: rangeOf(file, 0, 0),
      },
    ];
  }
  return [...compareParameters(file, checker, main, metadata), ...compareResult(file, checker, main, metadata)];
}

function compareParameters(file: ts.SourceFile, checker: ts.TypeChecker, main: LocatedMain, metadata: ActionMetadata): Mismatch[] {
  const expected = metadata.parameters;
  const actual = main.fn.parameters;
  const mismatches: Mismatch[] = [];

  if (actual.length !== expected.length) {
    const list = parameterList(file, main.fn);
    const extra = actual.slice(expected.length);
    const first = extra[0];
    const last = extra[extra.length - 1];
    const range =
      first && last
        ? rangeOf(file, first.getStart(file), last.getEnd())
        : list
          ? rangeOf(file, list.open.getStart(file), list.close.getEnd())
          : rangeOfNode(file, main.fn.parameters[0] ?? main.fn);
    const names = expected.map((p) => p.name).join(', ');
    mismatches.push({
      kind: 'count',
      message:
        actual.length > expected.length
          ? `main takes ${count(actual.length, 'parameter')} but the metadata declares ${expected.length}${names ? ` (${names})` : ''}; the platform passes nothing for ${extra.map((p) => p.name.getText(file)).join(', ')}.`
          : `main takes ${count(actual.length, 'parameter')} but the metadata declares ${expected.length} (${names}).`,
      expected: String(expected.length),
      actual: String(actual.length),
      range,
    });
  }

  const actualNames = actual.map((p) => p.name.getText(file));
  const expectedNames = expected.map((p) => p.name);
  actual.forEach((parameter, index) => {
    const name = actualNames[index] ?? '';
    const nameRange = rangeOfNode(file, parameter.name);
    // The metadata parameter this one stands for: the same name anywhere, else whatever sits at its position.
    let partner = expectedNames.indexOf(name);
    if (partner >= 0 && partner !== index) {
      mismatches.push({
        kind: 'order',
        message: `${name} is parameter ${index + 1} of main but parameter ${partner + 1} in the metadata; the platform passes arguments by position.`,
        index,
        expected: expectedNames[index] ?? '(none)',
        actual: name,
        range: nameRange,
      });
    } else if (partner < 0) {
      const atPosition = expectedNames[index];
      if (atPosition === undefined) return;
      mismatches.push({
        kind: 'name',
        message: `Parameter ${index + 1} of main is ${name} but the metadata calls it ${atPosition}.`,
        index,
        expected: atPosition,
        actual: name,
        range: nameRange,
      });
      // A renamed parameter is still the one at its position, unless that name sits elsewhere in main.
      if (actualNames.includes(atPosition)) return;
      partner = index;
    }
    const declared = expected[partner];
    if (!declared) return;
    const want = formOfParameterType(declared.type);
    const have = inOrderOf(formOfTsType(checker, parameterType(checker, parameter)), want);
    if (parameterAccepts(have, want)) return;
    mismatches.push({
      kind: 'type',
      message: `${name} is declared as ${describeForm(have)} but the metadata gives ${describeForm(want)}${detail(have, want)}.`,
      index,
      expected: describeForm(want),
      actual: describeForm(have),
      range: parameter.type ? rangeOfNode(file, parameter.type) : nameRange,
    });
  });
  return mismatches;
}

function compareResult(file: ts.SourceFile, checker: ts.TypeChecker, main: LocatedMain, metadata: ActionMetadata): Mismatch[] {
  const returned = awaitedReturnType(checker, main);
  if (!returned) return [];
  const want = formOfResultType(metadata.result.type);
  const have = inOrderOf(formOfTsType(checker, returned), want);
  if (resultFits(have, want)) return [];
  const range = resultRange(file, main);
  return [
    {
      kind: 'result',
      message: `main returns ${describeForm(have)} but the metadata's result is ${describeForm(want)}${detail(have, want)}.`,
      expected: describeForm(want),
      actual: describeForm(have),
      range,
    },
  ];
}

/**
 * The checker lists a union's literals in the order it first met them, which depends on what else it
 * checked before: the ids are put in the metadata's order, then the others by name, so a message says
 * the same whether main was checked alone or with other actions (`checkMany`).
 */
function inOrderOf(have: TypeForm, want: TypeForm): TypeForm {
  if (have.kind === 'choice' || have.kind === 'multiple') {
    const wanted = want.kind === 'choice' || want.kind === 'multiple' ? want.ids : [];
    const known = wanted.filter((id) => have.ids.includes(id));
    const others = have.ids.filter((id) => !wanted.includes(id)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return { kind: have.kind, ids: [...known, ...others] };
  }
  if (have.kind === 'object') {
    const properties = have.properties.map((p) => {
      const partner = want.kind === 'object' ? want.properties.find((w) => w.name === p.name) : undefined;
      return { name: p.name, form: inOrderOf(p.form, partner?.form ?? { kind: 'any' }) };
    });
    return { kind: 'object', properties };
  }
  return have;
}

function detail(have: TypeForm, want: TypeForm): string {
  let difference = '';
  if ((have.kind === 'choice' || have.kind === 'multiple') && have.kind === want.kind) difference = choiceDifference(have.ids, want.ids);
  else if (have.kind === 'object' && want.kind === 'object') difference = propertyDifference(have, want);
  else if (have.kind === 'unsupported') difference = have.reason;
  return difference ? ` (${difference})` : '';
}
