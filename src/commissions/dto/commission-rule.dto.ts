/**
 * The commission rule DTOs, by responsibility: the create/replace body (PUT is a full replace, so one
 * body serves both), the query strings (dry run, list filters) and the responses.
 */
export * from './commission-rule-body.dto';
export * from './commission-rule-query.dto';
export * from './commission-rule-response.dto';
