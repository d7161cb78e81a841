// ESLint (flat config): the frontend's house rules, run by 'npm run lint'
// (and so by 'make lint' and 'make test').
//   - no import cycle among src/'s modules (import-x/no-cycle);
//   - only the backend module (src/backend/) reaches the Wails-generated
//     code: the bindings and models (../wailsjs/go/…), the Wails runtime
//     (../wailsjs/runtime/…) and the generated event names (events.gen.ts);
//     everything else imports them from src/backend's index, so a change of
//     the generated code is met in that one folder;
//   - React's rules of hooks and their dependency lists;
//   - typescript-eslint's recommended rules (syntax only, no type checking:
//     tsc --noEmit is 'npm run typecheck').
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// Outside src/backend/: the generated code and the backend's own files are
// reached through the backend's index ('…/backend') only.
const throughTheBackend = {
  'no-restricted-imports': ['error', {
    patterns: [
      { regex: '(^|/)wailsjs/', message: 'only src/backend/ imports the Wails bindings and runtime: import them from the backend module' },
      { regex: '(^|/)events\\.gen$', message: 'the event names and payloads come from the backend module too' },
      { regex: '(^|/)backend/.', message: 'import the backend module through its index (…/backend), not its files' },
    ],
  }],
};

export default tseslint.config(
  { ignores: ['dist/', 'wailsjs/', 'node_modules/', 'e2e/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX, 'react-hooks': reactHooks },
    settings: {
      // Resolve relative imports as the bundler does (.ts, .tsx, an index),
      // and read the modules they reach as TypeScript (without these two,
      // no-cycle follows no .ts file and finds nothing).
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.d.ts'] })],
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      // Type-only imports are not edges: they are erased before the bundle.
      'import-x/no-cycle': 'error',
      ...throughTheBackend,
      // The hooks' rules the code's eslint-disable comments already name
      // (not the React Compiler's rules of the plugin's recommended set).
      // exhaustive-deps warns: seven effects list fewer dependencies than
      // they read, each on purpose or not; adding one changes when the
      // effect runs, so each is a change of its own, not this config's.
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      // As tsc's noUnusedParameters: a leading _ marks an argument unused on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // The backend module, and the event file app/gui/internal/eventsgen
    // writes beside it (it names models.ts's payload types).
    files: ['src/backend/**', 'src/events.gen.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
