// formily's expression compiler turns "{{ ... }}" strings into code with new Function, which the app's
// Content-Security-Policy (script-src 'self', no 'unsafe-eval') forbids and which would let a schema
// run arbitrary code. The renderer never hands formily such strings (conditions are our own data,
// evaluated by src/core/conditions.ts); this replacement makes sure that if one slips through it stays
// plain text instead of being compiled.
import { Schema } from '@formily/react';

export const NO_EXPRESSIONS = (expression: string): string => `{{${expression}}}`;

Schema.registerCompiler(NO_EXPRESSIONS);
