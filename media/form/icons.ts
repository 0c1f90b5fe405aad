/**
 * The few codicons the form shows (from @vscode/codicons, CC BY 4.0), as inline SVG. The font would
 * need shipping the codicon stylesheet and font and a font-src in the CSP; five paths need neither.
 */
const PATHS = {
  add: ['M8 1.5a.5.5 0 0 0-1 0V7H1.5a.5.5 0 0 0 0 1H7v5.5a.5.5 0 0 0 1 0V8h5.5a.5.5 0 0 0 0-1H8V1.5Z'],
  trash: [
    'M14 2h-4c0-1.103-.897-2-2-2S6 .897 6 2H2a.5.5 0 0 0 0 1h.54l.809 9.708A2.513 2.513 0 0 0 5.84 15h4.319a2.514 2.514 0 0 0 2.491-2.292L13.459 3h.54a.5.5 0 0 0 0-1H14ZM8 1c.551 0 1 .449 1 1H7c0-.551.449-1 1-1Zm3.655 11.625A1.509 1.509 0 0 1 10.16 14H5.841a1.509 1.509 0 0 1-1.495-1.375L3.544 3h8.914l-.802 9.625h-.001ZM7 5.5v6a.5.5 0 0 1-1 0v-6a.5.5 0 0 1 1 0Zm3 0v6a.5.5 0 0 1-1 0v-6a.5.5 0 0 1 1 0Z',
  ],
  'arrow-up': [
    'm13.854 7.146-5-5a.5.5 0 0 0-.707 0l-5.001 5a.5.5 0 0 0 .707.707l4.146-4.146V13.5a.5.5 0 0 0 1 0V3.707l4.146 4.146a.498.498 0 0 0 .708 0 .5.5 0 0 0 0-.707h.001Z',
  ],
  'arrow-down': [
    'M13.854 8.146a.5.5 0 0 0-.707 0l-4.146 4.146V2.5a.5.5 0 0 0-1 0v9.793L3.855 8.147a.5.5 0 0 0-.707.707l5 5a.498.498 0 0 0 .708 0l5-5a.5.5 0 0 0 0-.707l-.002-.001Z',
  ],
  gripper: [
    'M7 4a1 1 0 1 1-2 0 1 1 0 0 1 2 0Zm3-1a1 1 0 1 0 0 2 1 1 0 0 0 0-2ZM6 7a1 1 0 1 0 0 2 1 1 0 0 0 0-2Zm4 0a1 1 0 1 0 0 2 1 1 0 0 0 0-2Zm-4 4a1 1 0 1 0 0 2 1 1 0 0 0 0-2Zm4 0a1 1 0 1 0 0 2 1 1 0 0 0 0-2Z',
  ],
  error: [
    'M8 1C4.14 1 1 4.14 1 8s3.14 7 7 7 7-3.14 7-7-3.14-7-7-7Zm0 13c-3.309 0-6-2.691-6-6s2.691-6 6-6 6 2.691 6 6-2.691 6-6 6Zm2.854-8.146L8.708 8l2.146 2.146a.5.5 0 0 1-.708.707L8 8.707l-2.146 2.146a.498.498 0 0 1-.708 0 .5.5 0 0 1 0-.707L7.292 8 5.146 5.854a.5.5 0 0 1 .707-.707l2.146 2.146 2.146-2.146a.5.5 0 0 1 .707.707h.002Z',
  ],
  pass: [
    'M10.648 5.646a.5.5 0 0 1 .707.707l-4 4a.504.504 0 0 1-.708 0l-2-2a.5.5 0 1 1 .707-.707L7 9.292l3.646-3.646h.002Z',
    'M8 1c3.86 0 7 3.14 7 7s-3.14 7-7 7-7-3.14-7-7 3.14-7 7-7Zm0 1C4.691 2 2 4.691 2 8s2.691 6 6 6 6-2.691 6-6-2.691-6-6-6Z',
  ],
} as const;

export type IconName = keyof typeof PATHS;

const SVG = 'http://www.w3.org/2000/svg';

export function icon(name: IconName): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('width', '16');
  svg.setAttribute('height', '16');
  svg.setAttribute('fill', 'currentColor');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  svg.classList.add('icon');
  for (const d of PATHS[name]) {
    const path = document.createElementNS(SVG, 'path');
    path.setAttribute('d', d);
    if (name === 'pass') path.setAttribute('fill-rule', 'evenodd');
    svg.append(path);
  }
  return svg;
}
