/**
 * Conflict markers left by a merge: a file holding them is refused, by a save in the editor and by a
 * deploy alike, before anything is checked or sent.
 */
import { hasConflictMarkers } from './merge';
import { type FileProblem } from './outcome';

/** The markers of `text` as problems at their lines (none when the file holds no whole set of them). */
export function conflictMarkerProblems(text: string, file: string): FileProblem[] {
  if (!hasConflictMarkers(text)) return [];
  const problems: FileProblem[] = [];
  let offset = 0;
  text.split('\n').forEach((line, i) => {
    if (/^(<<<<<<<( |\r?$)|=======\r?$|>>>>>>>( |\r?$))/.test(line)) {
      const length = line.replace(/\r$/, '').length;
      problems.push({
        file,
        range: { start: { line: i, character: 0, offset }, end: { line: i, character: length, offset: offset + length } },
        message: 'conflict marker: resolve the merge before deploying',
      });
    }
    offset += line.length + 1;
  });
  return problems;
}
