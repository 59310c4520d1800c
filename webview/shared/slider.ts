/**
 * A slider tied to a number box with both bounds (numberScale.ts): the box stays the
 * way to type an exact value; either one moves the other. Until the box holds a value
 * in range the slider is drawn faint (class `unset`). Used by the form and the phone page.
 */
import type { NumberField } from '../../src/core/form/fields';
import { sliderRange } from '../../src/core/form/numberScale';
import { el } from './dom';

export function linkedSlider(
  field: NumberField,
  box: HTMLElement & { value: string },
  className: string,
  moved: () => void,
  /** When the box shows its first value (a component renders later). */
  ready: Promise<unknown> = Promise.resolve(),
): HTMLInputElement | undefined {
  const range = sliderRange(field);
  if (!range) return undefined;
  const slider = el('input', {
    className,
    attrs: { type: 'range', min: String(range.min), max: String(range.max), step: String(range.step), 'aria-label': field.label },
  });
  const follow = (): void => {
    const typed = box.value === '' ? NaN : Number(box.value);
    const inRange = Number.isFinite(typed) && typed >= range.min && typed <= range.max;
    slider.classList.toggle('unset', !inRange);
    if (inRange) slider.value = String(typed);
  };
  void ready.then(follow);
  box.addEventListener('input', follow);
  slider.addEventListener('input', () => {
    box.value = slider.value;
    slider.classList.remove('unset');
    moved();
  });
  return slider;
}
