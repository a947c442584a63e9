import { ToolError } from '@edgetool/core';
import * as v from 'valibot';
import { CALCULATOR_CONSTANTS, CALCULATOR_FUNCTIONS, CalculatorError, evaluate, MAX_EXPRESSION_LENGTH } from './calculator/index.ts';
import { defineDemoTool } from './deps.ts';

/** Exact arithmetic for the model, through a safe parser (never eval). */
export const calculate = defineDemoTool({
  name: 'calculate',
  description:
    'Evaluate an arithmetic expression exactly instead of doing mental math. Supports numbers (decimals, 1e3), ' +
    '+ - * / % (modulo) ^ (power), parentheses, unary minus, the functions ' +
    `${CALCULATOR_FUNCTIONS.join(', ')} (round(x, digits) takes optional digits) and the constants ${CALCULATOR_CONSTANTS.join(', ')}. ` +
    'Write multiplication explicitly (2*(3+4)). No variables, units or percent signs. Results have 15 significant digits.',
  input: v.object({
    expression: v.pipe(
      v.string(),
      v.minLength(1, 'The expression is empty'),
      v.maxLength(MAX_EXPRESSION_LENGTH, `At most ${MAX_EXPRESSION_LENGTH} characters`),
      v.description('The expression, e.g. (17.5 * 4 + 3) / 2 or sqrt(2)^2'),
    ),
  }),
  policy: { effects: 'read' },
  execute: ({ expression }, ctx) => {
    try {
      return { expression, result: evaluate(expression) };
    } catch (error) {
      if (!(error instanceof CalculatorError)) throw error;
      throw new ToolError('invalid-input', `Cannot evaluate the expression: ${error.message}.`, {
        toolName: ctx.tool.name,
        callId: ctx.call.id,
        issues: [{ path: 'expression', message: error.message }],
      });
    }
  },
});
