import { type SelectOption } from './fields';

export const SIMPLE_OPTIONS: readonly SelectOption[] = [
  { value: 'text', label: 'Text' },
  { value: 'number', label: 'Number' },
  { value: 'datetime', label: 'Date and time' },
  { value: 'email', label: 'E-mail' },
];

export const PARAMETER_OPTIONS: readonly SelectOption[] = [
  ...SIMPLE_OPTIONS,
  { value: 'single-choice', label: 'Single choice' },
  { value: 'multiple-select', label: 'Multiple select' },
  { value: 'collection', label: 'Collection' },
];

export const RESULT_OPTIONS: readonly SelectOption[] = [...SIMPLE_OPTIONS, { value: 'collection', label: 'Collection' }, { value: 'object', label: 'Object' }];

export const PROPERTY_OPTIONS: readonly SelectOption[] = [...SIMPLE_OPTIONS, { value: 'collection', label: 'Collection' }];
