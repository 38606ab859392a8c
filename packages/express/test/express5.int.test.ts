import express from 'express5'
import { describeExpress } from './express-suite'

describeExpress(5, express)
