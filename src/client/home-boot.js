// The prerendered pages' loader (docs/decisions/012): the home page arrives prerendered, so the app starts
// right after that first paint rather than before it; its modules are requested only then. Every other page
// arrives as a shell (navigation, spinner, footer) and starts its code at once (`data-eager`).
//
// Until the app has rendered over the prerendered markup, that markup is inert: links navigate on their
// own, but a button does nothing and React's render replaces whatever was typed or focused. So, until the
// app says it is ready ('pickreel:ready', src/client/main.tsx), a click on a button is held and then
// replayed on the same button of the live page, and typed text and focus are carried over.
/* global document, window, HTMLInputElement */
const root = document.getElementById('root');
const script = document.querySelector('script[data-entry]');
const entry = script.dataset.entry;

/** Where an element sits under #root: child indexes, the same in the prerender and in the app's render. */
function pathOf(element) {
  const path = [];
  for (let node = element; node && node !== root; node = node.parentElement) {
    path.unshift(Array.prototype.indexOf.call(node.parentElement.children, node));
  }
  return path;
}
function at(path, tagName) {
  let node = root;
  for (const index of path) node = node && node.children[index];
  return node && node.tagName === tagName ? node : null;
}

let clicked = null;
let submitted = null;
const typed = new Map();
let focused = null; // a search box or a button reached by Tab gets its focus back
const onClick = (event) => {
  const target = event.target instanceof window.Element ? event.target : null;
  const button = target && target.closest('button');
  if (!button || !root.contains(button)) return;
  event.preventDefault();
  clicked = { path: pathOf(button), label: button.getAttribute('aria-label') || button.textContent };
};
const onSubmit = (event) => {
  if (!(event.target instanceof window.HTMLFormElement) || !root.contains(event.target)) return;
  event.preventDefault(); // the app's own handler, not a page load, answers a search
  submitted = pathOf(event.target);
};
const onFocus = (event) => {
  const target = event.target;
  if (target instanceof window.Element && root.contains(target))
    focused = { path: pathOf(target), tagName: target.tagName };
};
const onInput = (event) => {
  const input = event.target;
  if (input instanceof HTMLInputElement && root.contains(input))
    typed.set(pathOf(input).join('.'), input.value);
};
document.addEventListener('click', onClick, true);
document.addEventListener('input', onInput, true);
document.addEventListener('focusin', onFocus, true);
document.addEventListener('submit', onSubmit, true);

window.addEventListener(
  'pickreel:ready',
  () => {
    document.removeEventListener('click', onClick, true);
    document.removeEventListener('input', onInput, true);
    document.removeEventListener('focusin', onFocus, true);
    document.removeEventListener('submit', onSubmit, true);
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
    for (const [key, value] of typed) {
      const input = at(key.split('.').map(Number), 'INPUT');
      if (!input) continue;
      setValue.call(input, value); // through the native setter, so React's onChange sees the input event
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }
    if (focused) at(focused.path, focused.tagName)?.focus();
    // After React has applied the restored text (it commits input updates in a microtask), so a search
    // submits what was typed.
    setTimeout(() => {
      if (submitted) at(submitted, 'FORM')?.requestSubmit();
      else if (clicked) {
        const button = at(clicked.path, 'BUTTON');
        if (button && (button.getAttribute('aria-label') || button.textContent) === clicked.label)
          button.click();
      }
    });
  },
  { once: true },
);

let started = false;
const start = () => {
  if (started) return;
  started = true;
  import(entry);
};
/** Start after the first paint: the home page's content is already there, its code can wait for it. */
function startAfterFirstPaint() {
  try {
    new PerformanceObserver((list, observer) => {
      if (list.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      setTimeout(start);
    }).observe({ type: 'paint', buffered: true });
  } catch {
    start(); // no paint timing in this browser
  }
  // A tab opened in the background does not paint: start anyway.
  setTimeout(start, 1000);
}
// Any other page's shell (scripts/prerender-home.mjs) starts at once: its content is what the code loads.
if (script.hasAttribute('data-eager')) start();
else startAfterFirstPaint();
