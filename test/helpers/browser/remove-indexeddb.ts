Object.defineProperty(window, 'indexedDB', { value: undefined, configurable: true });
