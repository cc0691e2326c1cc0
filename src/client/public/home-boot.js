// The home page's loader (docs/decisions/012): the page arrives prerendered, so the app starts right
// after that first paint rather than before it; its modules are requested only then.
/* global document */
const entry = document.querySelector('script[data-entry]').dataset.entry;
let started = false;
const start = () => {
  if (started) return;
  started = true;
  import(entry);
};
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
